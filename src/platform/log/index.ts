export { createLogger, DEFAULT_MAX_LOG_STRING_LENGTH, type Logger, type LoggerOptions } from './create-logger.js';
export { RequestLogLine, REQUEST_ID_LOG_LABEL } from './request-log-line.js';
export { FrameworkLogLine, jsonNumber, jsonString, jsonStringOrNull } from './framework-log-line.js';
export { stderrLogDestination } from './log-destination.js';
export { OutageLog, type OutageLogSink } from './outage-log.js';
