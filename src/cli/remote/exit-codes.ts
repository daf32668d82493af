// Exit codes of the commands that talk to a service (issue 13), so a CI job can branch on them.
export const EXIT = {
  /** Done; for `eval run --wait`, the verdict was Pass (or Warn). */
  ok: 0,
  /** The outcome failed: verdict Fail, a run that ended Failed or Cancelled, a conversation that failed. */
  failed: 1,
  /** Bad command line. */
  usage: 2,
  /** The service refused (a problem answer) or could not be reached. */
  refused: 3,
} as const;

export const EXIT_NOTES = [
  'exit codes: 0 done (eval: verdict Pass or Warn), 1 failed (eval: verdict Fail; a run Failed or Cancelled),',
  '            2 bad usage, 3 the service refused (its problem is printed) or could not be reached',
];

/** The notes under every remote command's --help: where the connection comes from, then the exit codes. */
export const REMOTE_NOTES = ['environment: PORTCULLIS_URL, PORTCULLIS_TOKEN', ...EXIT_NOTES];
