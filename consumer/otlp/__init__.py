"""OpenTelemetry traces in: OTLP export requests decoded into spans, spans assembled into responses."""
