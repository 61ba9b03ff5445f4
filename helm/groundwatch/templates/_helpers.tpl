{{- define "groundwatch.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "groundwatch.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "groundwatch.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{ include "groundwatch.selectorLabels" . }}
{{- end }}

{{- define "groundwatch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "groundwatch.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The scoring consumer's pods only (not the recall-probe job). */}}
{{- define "groundwatch.consumerSelectorLabels" -}}
{{ include "groundwatch.selectorLabels" . }}
app.kubernetes.io/component: consumer
{{- end }}

{{- define "groundwatch.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "groundwatch.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "groundwatch.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/*
Flattens the nested `settings` map into the env vars the settings object reads:
prefix GROUNDWATCH_, sections joined with "__", e.g. GROUNDWATCH_KAFKA__INPUT_TOPIC.
Lists go out as JSON, which pydantic-settings parses.
*/}}
{{- define "groundwatch.settingsEnv" -}}
{{- range $key, $value := .values }}
{{- $name := printf "%s%s" $.prefix (upper $key) }}
{{- if kindIs "map" $value }}
{{- include "groundwatch.settingsEnv" (dict "prefix" (printf "%s__" $name) "values" $value) }}
{{- else if kindIs "slice" $value }}
{{ $name }}: {{ toJson $value | quote }}
{{- else if and (kindIs "float64" $value) (eq $value (floor $value)) }}
{{- /* Values files hand numbers over as float64: 1000000 would print as 1e+06. */}}
{{ $name }}: {{ int64 $value | toString | quote }}
{{- else }}
{{ $name }}: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Env vars read from existing Secrets: credentials never pass through values. */}}
{{- define "groundwatch.secretEnv" -}}
{{- with .Values.secrets.kafkaSaslPassword }}
{{- if .name }}
- name: GROUNDWATCH_KAFKA__SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.opensearchPassword }}
{{- if .name }}
- name: GROUNDWATCH_OPENSEARCH__PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.kafkaSslKeyPassword }}
{{- if .name }}
- name: GROUNDWATCH_KAFKA__SSL_KEY_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.alertsWebhookUrl }}
{{- if .name }}
- name: GROUNDWATCH_ALERTS__WEBHOOK_URL
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.alertsWebhookToken }}
{{- if .name }}
- name: GROUNDWATCH_ALERTS__WEBHOOK_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.phoenixApiKey }}
{{- if .name }}
- name: GROUNDWATCH_PHOENIX__API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.otlpVerdictsHeaders }}
{{- if .name }}
- name: GROUNDWATCH_OTLP_VERDICTS__HEADERS
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.secrets.kafkaTls }}
{{- if .name }}
{{- if .caKey }}
- name: GROUNDWATCH_KAFKA__SSL_CA_LOCATION
  value: /etc/groundwatch/kafka-tls/{{ .caKey }}
{{- end }}
{{- if .certKey }}
- name: GROUNDWATCH_KAFKA__SSL_CERTIFICATE_LOCATION
  value: /etc/groundwatch/kafka-tls/{{ .certKey }}
- name: GROUNDWATCH_KAFKA__SSL_KEY_LOCATION
  value: /etc/groundwatch/kafka-tls/{{ required "secrets.kafkaTls.keyKey goes with certKey" .keyKey }}
{{- end }}
{{- end }}
{{- end }}
{{- with .Values.secrets.opensearchTls }}
{{- if .name }}
{{- if .caKey }}
- name: GROUNDWATCH_OPENSEARCH__CA_CERTS
  value: /etc/groundwatch/opensearch-tls/{{ .caKey }}
{{- end }}
{{- if .certKey }}
- name: GROUNDWATCH_OPENSEARCH__CLIENT_CERT
  value: /etc/groundwatch/opensearch-tls/{{ .certKey }}
- name: GROUNDWATCH_OPENSEARCH__CLIENT_KEY
  value: /etc/groundwatch/opensearch-tls/{{ required "secrets.opensearchTls.keyKey goes with certKey" .keyKey }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* Certificate Secrets as read-only volumes (mounted by groundwatch.tlsVolumeMounts). */}}
{{- define "groundwatch.tlsVolumes" -}}
{{- range $volume, $tls := dict "kafka-tls" .Values.secrets.kafkaTls "opensearch-tls" .Values.secrets.opensearchTls }}
{{- if $tls.name }}
- name: {{ $volume }}
  secret:
    secretName: {{ $tls.name }}
    defaultMode: 288  # 0440: owner and fsGroup may read
{{- end }}
{{- end }}
{{- end }}

{{- define "groundwatch.tlsVolumeMounts" -}}
{{- range $volume, $tls := dict "kafka-tls" .Values.secrets.kafkaTls "opensearch-tls" .Values.secrets.opensearchTls }}
{{- if $tls.name }}
- name: {{ $volume }}
  mountPath: /etc/groundwatch/{{ $volume }}
  readOnly: true
{{- end }}
{{- end }}
{{- end }}

{{/* Credentials never pass through values: a render that finds one in `settings` fails. */}}
{{- define "groundwatch.noPlainSecrets" -}}
{{- range $path := list "kafka.sasl_password" "kafka.ssl_key_password" "opensearch.password" "alerts.webhook_url" "alerts.webhook_token" "serve.auth_token" "phoenix.api_key" "otlp_verdicts.headers" }}
{{- $parts := splitList "." $path }}
{{- $section := get $.Values.settings (first $parts) | default dict }}
{{- if and (kindIs "map" $section) (hasKey $section (last $parts)) }}
{{- fail (printf "settings.%s must not be set in values: credentials come only from Kubernetes Secrets (secrets.* in values.yaml)" $path) }}
{{- end }}
{{- end }}
{{- end }}

{{- define "groundwatch.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsUser }}
fsGroup: {{ .Values.securityContext.runAsUser }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "groundwatch.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: ["ALL"]
{{- end }}
