// Fixed bounds of `http_fetch` that are not host configuration.

export const httpFetchLimits = Object.freeze({
  maxRedirects: 5,
  maxUrlLength: 2048,
  maxRequestHeaders: 32,
  maxHeaderNameLength: 64,
  maxHeaderValueLength: 4096,
  /** Names plus values of all caller headers together. */
  maxRequestHeaderBytes: 8 * 1024,
  /** RFC 9110 token characters. */
  headerNamePattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
});
