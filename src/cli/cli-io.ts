// What a CLI command may touch: output lines, the working directory, the environment it was given
// and a signal for shutdown. Commands never read process.* directly, so they can run in tests.
export interface CommandIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM. */
  readonly signal: AbortSignal;
  /** Writes text as it is, without a line end (progress output); default: whole lines through stdout. */
  readonly write?: (text: string) => void;
  /** stderr when it is a terminal (progress bars draw there). */
  readonly terminal?: NodeJS.WriteStream;
  /** stdout and stderr are the same file, not a terminal (`2>&1 | jq`): serve prints its banner as one JSON line. */
  readonly stdoutIsTheLog?: boolean;
}

export const USAGE = [
  'usage: portcullis <command> [options]      (from a checkout: npx portcullis …, or node dist/src/cli/main.js …)',
  '',
  'commands:',
  '  serve [--config FILE]... [--port N] [--host H]   serve the API (env PORT and HOST are honoured)',
  '  migrate [--config FILE]...                       apply the PostgreSQL schema migrations (AppConfig:Storage) and exit',
  '  dev-idp [--port N] [--host H] [--state DIR]      a local OpenID provider for development and tests',
  '  token --sub S [--oid O] [--role R]... [--ttl 1h] [--state DIR]   mint a token from the dev-idp',
  '  bundle pack DIR [-o FILE]                        zip an agent folder and check it as the server would',
  '  policy validate FILE... | test FILE... --cases FILE [--config FILE]...   check Cedar policies, or run test cases against them',
  '',
  'commands that talk to a running service (--url/--token or PORTCULLIS_URL/PORTCULLIS_TOKEN; --json; --help on each):',
  '  eval run DATASET... [--wait] [--junit FILE]      run evals; exit 0 on Pass, 1 on Fail, 3 when refused',
  '    [--dataset-file FILE] [--subject-handle H] [--replay none|tools|all] [--baseline JOB] [--fail-on-regression]   your own dataset and agent, against a baseline',
  '  workflow submit FILE | run ID [--watch] | approve|reject JOB APPROVAL',
  '  approvals list [--to-decide] [--status S] | decide ID approve|reject [--comment T] [--payload JSON]',
  '  schedule create NAME --cron EXPR (--workflow ID | --eval DATASET...) | list | delete ID | fires ID',
  '  webhook create URL --event NAME... | list | deliveries ID | test ID | delete ID',
  '  mcp config [--client claude-code|cursor|vscode]   the MCP client configuration for this service\'s gateway',
  '  bundle run DIR-or-ZIP --message TEXT... [--stream]   upload (packing a folder) and run a conversation',
  '',
  'options:',
  '  -h, --help      show this help; `portcullis <command> --help` shows a command\'s options and defaults',
  '  --version       print the version',
].join('\n');
