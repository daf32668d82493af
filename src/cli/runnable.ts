// A command line as the CLI's hints print it: runnable as shown from a checkout, where a bare
// `portcullis` is not on PATH (decision 1001). An id that begins with '-' goes after '--', so it
// stays an id instead of reading as an option.
export const RUNNABLE_PREFIX = 'npx portcullis';

export function runnable(command: string, id?: string): string {
  return `${RUNNABLE_PREFIX} ${command}${id === undefined ? '' : ` ${id.startsWith('-') ? '-- ' : ''}${id}`}`;
}
