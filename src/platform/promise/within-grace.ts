// Waits for work, but no longer than a grace period (shutdown must finish within DESIGN §1's 10 s).
// The timer never keeps the process alive. The one copy: the run engine and every shutdown step use it.

export async function withinGrace(work: Promise<unknown>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
    timer.unref();
  });
  try {
    await Promise.race([work, grace]);
  } finally {
    clearTimeout(timer);
  }
}
