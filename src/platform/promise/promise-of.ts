// What an async function gives its caller for free, without its extra promise and turns: the promise
// `call` returns, or a rejection when it throws synchronously (a non-Error throw wrapped in an Error).
// For hot paths that hand one promise on (each workflow step, each governed tool call), where a
// synchronous throw must still reach the caller as a rejection. `promiseOf(call, argument)` calls
// `call(argument)`: no closure is made for a call the caller already holds (a step's runner and its context).
export function promiseOf<T>(call: () => Promise<T>): Promise<T>;
export function promiseOf<A, T>(call: (argument: A) => Promise<T>, argument: A): Promise<T>;
export function promiseOf<A, T>(call: (argument?: A) => Promise<T>, argument?: A): Promise<T> {
  try {
    return call(argument);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
