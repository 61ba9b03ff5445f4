{{/* groundwatch serve: the inline check's pods (values.serve). */}}
{{- define "groundwatch.serveName" -}}
{{- printf "%s-serve" (include "groundwatch.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "groundwatch.serveSelectorLabels" -}}
{{ include "groundwatch.selectorLabels" . }}
app.kubernetes.io/component: serve
{{- end }}
