// Thrown when AGENT.md cannot yield an agent. The reasons are a subset of the archive guards, so
// staging passes them through unchanged; the parse failure, if any, stays in `cause`. `hint` says
// where (a line number, one of our own field names, a YAML error code), never what the file says.
export type ManifestRejection = 'missing-agent-manifest' | 'agent-manifest-not-regular' | 'invalid-agent-manifest' | 'unresolvable-agent-id';

export class ManifestRejected extends Error {
  readonly code = 'manifest-rejected';
  readonly reason: ManifestRejection;
  readonly hint: string | undefined;

  constructor(reason: ManifestRejection, options: { readonly cause?: unknown; readonly hint?: string } = {}) {
    super(`The bundle manifest was rejected: ${reason}.`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ManifestRejected';
    this.reason = reason;
    this.hint = options.hint;
  }
}
