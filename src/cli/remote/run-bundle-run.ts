// `portcullis bundle run DIR-or-ZIP --message TEXT... [--stream]`: packs a folder on the fly (the
// `bundle pack` code, checked as the server would), uploads it, runs the messages as one conversation
// through the run's AG-UI stream and prints the transcript with its tool calls (live with --stream).
// Exit 0 when the conversation succeeded, 1 when the run or the conversation failed.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { unwrap, type Schema } from '../../client/index.js';
import { isArchiveRejected } from '../../bundles/archive/index.js';
import { checkArchive } from '../bundle-pack/check-archive.js';
import { zipFolder } from '../bundle-pack/zip-folder.js';
import type { CommandSpec } from './command-spec.js';
import { CONNECTION_OPTIONS } from './connection.js';
import { EXIT, REMOTE_NOTES } from './exit-codes.js';
import { runRemote, UsageError, type RemoteIo } from './remote-command.js';
import { Transcript } from './transcript.js';

export const BUNDLE_RUN_SPEC: CommandSpec = {
  name: 'bundle run',
  positionals: 'DIR-or-ZIP',
  summary: 'Upload an agent folder (packed on the fly) or zip and run a conversation against it; prints the transcript with tool calls.',
  options: {
    message: { type: 'string', short: 'm', value: 'TEXT', multiple: true, description: 'A user message, one turn each, in order (repeatable; at least one).' },
    stream: { type: 'boolean', default: false, description: 'Print the transcript live as the run streams it.' },
    conversation: { type: 'string', value: 'ID', description: 'Continue (or start) this conversationId.' },
    'max-turns': { type: 'string', value: 'N', default: '10', applyDefault: false, description: 'Bound the turns of this run.' },
    keep: { type: 'boolean', default: false, description: 'Keep the uploaded handle afterwards and print it (it is deleted otherwise).' },
    ...CONNECTION_OPTIONS,
  },
  notes: REMOTE_NOTES,
};

export async function runBundleRunCommand(args: string[], io: RemoteIo): Promise<number> {
  return runRemote(BUNDLE_RUN_SPEC, args, io, async ({ values, positionals, client, json }) => {
    if (positionals.length !== 1) throw new UsageError('exactly one folder or zip is needed');
    const messages = Array.isArray(values.message) ? values.message : [];
    if (messages.length === 0 || messages.some((m) => m.trim() === '')) throw new UsageError('at least one non-blank --message is needed');
    const maxTurns = values['max-turns'] === undefined ? undefined : Number(values['max-turns']);
    if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) throw new UsageError('--max-turns must be a positive integer');
    const source = resolve(io.cwd, positionals[0]!);

    const archive = await archiveOf(source, io);
    if (archive === undefined) return EXIT.refused;
    const { handle, expiresAt } = await client.registerBundle(archive.bytes, archive.name);
    try {
      const body: Schema<'RunBundleRequest'> = {
        userMessages: messages,
        stream: true,
        ...(typeof values.conversation === 'string' ? { conversationId: values.conversation } : {}),
        ...(maxTurns !== undefined ? { maxTurns } : {}),
      };
      const started = await unwrap(client.api.POST('/api/bundles/{handle}/runs', { params: { path: { handle } }, body }));
      const live = values.stream === true && !json ? { write: io.write } : undefined;
      const transcript = new Transcript(live);
      for (const message of messages) transcript.user(message);
      const events = [];
      for await (const event of client.bundleRunEvents(handle, started.jobId, { signal: io.signal })) {
        events.push(event);
        transcript.add(event);
      }
      const run = await unwrap(client.api.GET('/api/bundles/{handle}/runs/{jobId}', { params: { path: { handle, jobId: started.jobId } } }));
      if (json) io.stdout(JSON.stringify({ handle, run, transcript: transcript.lines, events }));
      else {
        if (live === undefined) for (const line of transcript.lines) io.stdout(line);
        io.stdout(`run ${run.jobId} ${run.status}${run.result ? `: ${run.result.turnCount} turns, ${run.result.totalToolInvocations} tool calls` : ''}${run.error ? ` (${run.error})` : ''}`);
        // A run can succeed while its conversation failed (no model, an unreachable one): say why.
        const failure = run.result?.conversationSucceeded === false ? run.result.conversationError : null;
        if (failure) io.stderr(`portcullis bundle run: the conversation failed: ${failure}`);
        // Kept: the handle to run it again, or to make this run an eval case (`from: { handle, jobId }`).
        if (values.keep === true) io.stdout(`kept handle ${handle} until ${expiresAt}`);
      }
      return run.status === 'Succeeded' && run.result?.conversationSucceeded === true ? EXIT.ok : EXIT.failed;
    } finally {
      if (values.keep !== true) await client.api.DELETE('/api/bundles/{handle}', { params: { path: { handle } } }).catch(() => undefined);
    }
  });
}

/** The zip to upload: the file itself, or the folder packed into a temporary zip and checked as the server would. */
async function archiveOf(source: string, io: RemoteIo): Promise<{ bytes: Uint8Array; name: string } | undefined> {
  const info = await stat(source).catch(() => undefined);
  if (info === undefined) throw new UsageError(`${source} does not exist`);
  if (info.isFile()) return { bytes: await readFile(source), name: basename(source) };
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-bundle-run-'));
  const zip = join(dir, `${basename(source)}.zip`);
  try {
    await zipFolder(source, zip);
    await checkArchive(zip, { warn: (_details, message) => io.stderr(`warning: ${message}`) });
    return { bytes: await readFile(zip), name: basename(zip) };
  } catch (error) {
    if (!isArchiveRejected(error)) throw error;
    io.stderr(`portcullis bundle run: the server would refuse this bundle (guard ${error.guard}): ${error.detail}`);
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
