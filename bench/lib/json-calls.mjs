// The two small steps every multi-process benchmark takes against a running service: one JSON call
// (a non-2xx answer throws, naming it) and polling until a value is what it waits for.

/** `method path` with an optional JSON body; the parsed answer, null for an empty one. */
export async function call(base, method, path, body) {
  const res = await fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

/** Reads until `done(value)`, waiting `everyMs` between reads; resolves with that value. */
export async function until(read, done, everyMs = 20) {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
