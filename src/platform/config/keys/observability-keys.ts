// Keys of AppConfig:Observability: what the service exposes about itself. Tracing is configured by
// the standard OTEL_* variables instead (read by otel-environment.ts), as every OpenTelemetry SDK is.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { defineKeys } from '../define-keys.js';

export const observabilityKeys = defineKeys([
  {
    key: 'AppConfig:Observability:Metrics:Enabled',
    codec: booleanCodec,
    default: true,
    meaning: 'Serve Prometheus metrics at GET /metrics (public, like /healthz) and count them; false answers 404 there and counts nothing.',
  },
]);
