// What `portcullis bundle …` may touch: output lines and the working directory. Structurally a subset
// of the CLI's CommandIo, so main.ts passes its own io straight in.
export interface PackIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly cwd: string;
}
