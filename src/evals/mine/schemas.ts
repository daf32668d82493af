// Request/response schemas of a caller's own datasets (DESIGN.md §19): they type the handlers and
// produce the OpenAPI entries. The dataset object is §7's; the PUT body is documented here but
// validated by parseDataset (as a JSON dataset file is), so the 400s name the case and the field. The
// documented shape accepts everything parseDataset accepts (an optional field may be null): a field
// added to the dataset readers (read-case.ts) must be added here too, or GET would not show it.
import { Type } from '../../platform/vendor/typebox.js';
import type { Static, TSchema } from 'typebox';
import { PageQuerySchema, PathId } from '../../platform/http/index.js';
import { ASSERTION_TYPES } from '../assertions/assertion.js';
import { MAX_TIMEOUT_SECONDS } from '../datasets/read-case.js';
import { DATASET_NAME_PATTERN } from './dataset-name.js';
import { MAX_RECORDING_STEPS } from '../recording/read-recording.js';

const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const timeoutSeconds = (description: string) => Type.Optional(orNull(Type.Number({ exclusiveMinimum: 0, maximum: MAX_TIMEOUT_SECONDS, description })));
const texts = (description: string) => Type.Optional(orNull(Type.Array(Type.String(), { description })));

const AssertionSchema = Type.Object(
  {
    type: Type.Union(ASSERTION_TYPES.map((type) => Type.Literal(type))),
    value: Type.Optional(Type.Unknown({ description: 'What the assertion compares with (a string, number, JSON value or JSON Schema, by type); not used by is-json.' })),
    severity: Type.Optional(orNull(Type.Union([Type.Literal('error'), Type.Literal('warn')], { description: '`warn` makes a failure a warning (default error).' }))),
    flags: Type.Optional(Type.String({ description: 'regex only: any of i, m, s, u.' })),
  },
  { additionalProperties: false },
);

const RecordedCallProperties = {
  tool: Type.String({ minLength: 1 }),
  operation: Type.String(),
  arguments: Type.Record(Type.String(), Type.Unknown(), { description: 'The call’s parameters.' }),
};

/** DESIGN §19: a run's model answers and tool calls with their results, in order (steps numbered from 1). */
export const RecordingSchema = Type.Object(
  {
    steps: Type.Array(
      Type.Union([
        Type.Object(
          {
            model: Type.Object(
              { text: Type.String(), toolCalls: Type.Optional(Type.Array(Type.Object(RecordedCallProperties, { additionalProperties: false }))) },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false, description: 'A model answer: its text and the tool calls it asked for.' },
        ),
        Type.Object(
          { ...RecordedCallProperties, result: Type.String({ description: 'What the model was told.' }), isError: Type.Boolean() },
          { additionalProperties: false, description: 'A tool call and its result, redacted as the run’s frames were.' },
        ),
      ]),
      { minItems: 1, maxItems: MAX_RECORDING_STEPS },
    ),
  },
  { additionalProperties: false, description: 'What the run the case was made from did (DESIGN §19).' },
);

const CaseSchema = Type.Object(
  {
    id: Type.Optional(orNull(Type.String({ description: '1 to 200 characters, unique in the dataset (default case-<position>).' }))),
    description: Type.Optional(orNull(Type.String())),
    tags: texts('What tagFilter selects by.'),
    input: Type.Optional(Type.String({ description: 'One user message; or give messages.' })),
    messages: texts('User messages, one turn each; or give input.'),
    assert: Type.Optional(orNull(Type.Array(AssertionSchema))),
    timeoutSeconds: timeoutSeconds('This case’s deadline (default the dataset’s).'),
    agent: Type.Optional(orNull(Type.String({ description: 'A case made from a run: the bundle’s AGENT.md id.' }))),
    recording: Type.Optional(orNull(RecordingSchema)),
  },
  { additionalProperties: false },
);

const SubjectSchema = Type.Object(
  {
    agent: Type.Optional(orNull(Type.String({ description: 'A host agent id; or give system and tools.' }))),
    system: Type.Optional(orNull(Type.String())),
    tools: texts('Requested tools, narrowed by the starting caller’s envelope.'),
  },
  { additionalProperties: false, description: 'Who answers the cases (default: the default system prompt and no tools).' },
);

const DatasetProperties = {
  description: Type.Optional(orNull(Type.String())),
  subject: Type.Optional(orNull(SubjectSchema)),
  cases: Type.Array(CaseSchema, { minItems: 1 }),
  timeoutSeconds: timeoutSeconds('The cases’ default deadline (default 120).'),
};

export const PutMyEvalDatasetRequestSchema = Type.Object(DatasetProperties, {
  $id: 'PutMyEvalDatasetRequest',
  additionalProperties: false,
  description: 'A dataset object as in a JSON dataset file (DESIGN §7); its serialized size is within Evaluation:MaxDatasetBytes.',
});

const name = Type.String({ description: 'The dataset’s name.' });
const version = Type.Integer({ minimum: 1, description: 'Numbered from 1; a PUT with other content than the latest makes the next.' });
const caseCount = Type.Integer({ minimum: 1 });

export const MyEvalDatasetVersionSchema = Type.Object(
  { name, version, caseCount, createdAt: Type.String({ format: 'date-time', description: 'When this version was written.' }) },
  { $id: 'MyEvalDatasetVersion' },
);

export const MyEvalDatasetSchema = Type.Object(
  { name, version, createdAt: Type.String({ format: 'date-time', description: 'When this version was written.' }), ...DatasetProperties },
  { $id: 'MyEvalDataset', description: 'The version’s dataset object as it was PUT, with its name, version and time beside it.' },
);

export const MyEvalDatasetListSchema = Type.Object(
  {
    datasets: Type.Array(Type.Object({ name, version, caseCount, updatedAt: Type.String({ format: 'date-time', description: 'When the latest version was written.' }) }), {
      description: 'The latest version of each, newest dataset first.',
    }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' }),
  },
  { $id: 'MyEvalDatasetList' },
);

/** PUT names the dataset it creates or changes: refused with 400 unless it is a dataset name. */
export const PutMyEvalDatasetParamsSchema = Type.Object({
  name: Type.String({ pattern: DATASET_NAME_PATTERN, description: 'The dataset’s name: 1 to 64 characters of a-z, 0-9 and "-", starting with a letter or digit (else 400).' }),
});

/** GET and DELETE name a dataset that may not exist: any other text is an unknown one (404). */
export const MyEvalDatasetParamsSchema = Type.Object({ name: PathId('The dataset’s name.') });

export const MyEvalDatasetQuerySchema = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, description: 'A version of the dataset (default its latest); one it does not have is 404.' })) },
  { additionalProperties: false },
);

export const MyEvalDatasetListQuerySchema = PageQuerySchema;

/** DESIGN §19 "A run becomes a case": the run is named as its routes name it. */
const RunRefSchema = Type.Object(
  {
    handle: Type.String({ description: 'The bundle handle the run was started on (another handle is 404).' }),
    jobId: Type.String({ description: 'The run’s job id.' }),
  },
  { additionalProperties: false, description: 'A finished bundle run of the caller (Succeeded, Failed or cancelled); its handle may have expired since.' },
);

export const AddMyEvalDatasetCaseRequestSchema = Type.Object(
  {
    from: RunRefSchema,
    id: Type.Optional(orNull(Type.String({ description: '1 to 200 characters, unique in the dataset (default run-<jobId>); an id the dataset already has is 400.' }))),
    tags: texts('What tagFilter selects by.'),
    assert: Type.Optional(orNull(Type.Array(AssertionSchema, { description: 'What the case checks (default [{ "type": "matches-recording" }]).' }))),
  },
  {
    $id: 'AddMyEvalDatasetCaseRequest',
    additionalProperties: false,
    description: 'The run to make a case of, and the case’s id, tags and assertions; they are validated with the dataset as a PUT’s are.',
  },
);

/** What the service checks of the body before the dataset readers check the case fields (so their 400s name the case). */
export const AddMyEvalDatasetCaseShapeSchema = Type.Object(
  { from: RunRefSchema, id: Type.Optional(Type.Unknown()), tags: Type.Optional(Type.Unknown()), assert: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);

export const AddMyEvalDatasetCaseResponseSchema = Type.Object(
  { name, version, caseId: Type.String({ description: 'The new case’s id, the last of the version’s cases.' }) },
  { $id: 'AddMyEvalDatasetCaseResponse' },
);

export type MyEvalDatasetVersion = Static<typeof MyEvalDatasetVersionSchema>;
export type MyEvalDataset = Static<typeof MyEvalDatasetSchema>;
export type MyEvalDatasetList = Static<typeof MyEvalDatasetListSchema>;
export type AddMyEvalDatasetCaseShape = Static<typeof AddMyEvalDatasetCaseShapeSchema>;
export type AddMyEvalDatasetCaseResponse = Static<typeof AddMyEvalDatasetCaseResponseSchema>;
