// The json tool's input and output bounds, shared by its schemas and its operations.
export const MAX_EXPRESSION_LENGTH = 2000;
/** Longest `data`, as serialized JSON characters. */
export const MAX_DATA_CHARACTERS = 1_048_576;
/** Longest `schema`, as serialized JSON characters; a cheap guard against compile bombs. */
export const MAX_SCHEMA_CHARACTERS = 262_144;
/** Longest query result, as serialized JSON characters; `{a: @, b: @}` chains double it per step. */
export const MAX_RESULT_CHARACTERS = 1_048_576;
export const MAX_VALIDATION_ERRORS = 50;
export const DEFAULT_TIMEOUT_MS = 1000;
