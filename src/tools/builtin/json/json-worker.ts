// The worker that runs JMESPath queries and JSON Schema validation off the event loop: a 260-character
// JMESPath expression can run for seconds, and a schema `pattern` can backtrack catastrophically. The
// script is an inline string so it runs unchanged from src/ under vitest and from dist/.
//
// Validation compiles each schema in a fresh Ajv instance (no `$id` clashes between calls, no cache that
// grows forever) with meta-schema checking done once by a long-lived instance, and never loads remote
// `$ref`s (no loadSchema): an unresolvable reference is a schema error.
import { createRequire } from 'node:module';
import { BoundedWorker } from '../text/bounded-worker.js';

const script = `
const jmespath = require(workerData.jmespathPath);
const Ajv2020 = require(workerData.ajvPath).default;
const addFormats = require(workerData.ajvFormatsPath).default;
const ajvOptions = { allErrors: true, strict: false, logger: false };
const metaSchemaChecker = new Ajv2020(ajvOptions);
metaSchemaChecker.validateSchema({});

function serialize(value, limit) {
  const tooLarge = () => new Error('the result is larger than ' + limit + ' characters of JSON');
  let budget = limit;
  const text = JSON.stringify(value === undefined ? null : value, (key, item) => {
    budget -= key.length + (typeof item === 'string' ? item.length : 1);
    if (budget < 0) throw tooLarge();
    return item;
  });
  if (text.length > limit) throw tooLarge();
  return text;
}

function validate(request) {
  let check;
  try {
    if (!metaSchemaChecker.validateSchema(request.schema)) {
      return { schemaError: metaSchemaChecker.errorsText(metaSchemaChecker.errors, { dataVar: 'schema' }) };
    }
    const ajv = new Ajv2020({ ...ajvOptions, meta: false, validateSchema: false, addUsedSchema: false });
    addFormats(ajv);
    check = ajv.compile(request.schema);
  } catch (error) {
    return { schemaError: error instanceof Error ? error.message : String(error) };
  }
  const valid = check(request.data);
  const errors = (check.errors || []).slice(0, request.maxErrors).map((error) => ({
    instancePath: error.instancePath,
    keyword: error.keyword,
    message: error.message || 'is invalid',
    params: error.params,
  }));
  return { valid, errors };
}

function handle(request) {
  if (request.op === 'query') return serialize(jmespath.search(request.data, request.expression), request.maxResultChars);
  if (request.op === 'validate') return validate(request);
  throw new Error('unknown request');
}
`;

export function createJsonWorker(timeoutMs: number): BoundedWorker {
  const require = createRequire(import.meta.url);
  return new BoundedWorker({
    script,
    workerData: {
      jmespathPath: require.resolve('jmespath'),
      ajvPath: require.resolve('ajv/dist/2020'),
      ajvFormatsPath: require.resolve('ajv-formats'),
    },
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
}
