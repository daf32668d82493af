// The data of an openapi-fetch call whose problem answers were already thrown by the client's
// middleware; a 204 resolves to undefined, any other answer without its documented body is an error.
export async function unwrap<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined && response.status !== 204) throw new Error(`HTTP ${response.status} answered without the documented body`);
  return data as T;
}
