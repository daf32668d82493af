// The base of log objects whose every field the framework produced itself (ids, route patterns,
// statuses, durations, digests, names from its own catalogs and config): nothing a caller, model or
// tool wrote. The logger writes such a line as it is; every other logged object is deep-copied and
// scanned for secrets. A subclass declares its fields as readonly primitives and says where each
// comes from; anything that could carry content belongs in a plain object instead. It is logged with
// a constant message (`log.info(line, 'request completed')`); further arguments are redacted as usual.
export abstract class FrameworkLogLine {}
