// What the dev-idp commands may touch: output lines, the working directory and an optional stop
// signal. Structurally a subset of the CLI's CommandIo, so main.ts passes its own io straight in.
export interface CliIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly cwd: string;
  /** Aborted to stop a long-running command; without it SIGINT/SIGTERM are listened to directly. */
  readonly signal?: AbortSignal;
}
