export { createLogger, DEFAULT_MAX_LOG_STRING_LENGTH, type Logger, type LoggerOptions } from './create-logger.js';
