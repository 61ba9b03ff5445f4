{{/*
Recalibrated scorer settings (issue 15.4): `groundwatch eval --calibrate ... --calibration-out
calibration.json` writes a settings file ({"scorer": {...thresholds}, "calibration": {...}}).
calibration.configMap names an existing ConfigMap holding it under calibration.key; or
`--set-file calibration.json=calibration.json` lets the chart create that ConfigMap. The file is
mounted read-only and passed as `--config`; GROUNDWATCH_* variables still override it.
*/}}
{{- define "groundwatch.calibrationConfigMap" -}}
{{- if .Values.calibration.json -}}
{{ include "groundwatch.fullname" . }}-calibration
{{- else -}}
{{ .Values.calibration.configMap }}
{{- end -}}
{{- end }}

{{- define "groundwatch.calibrationArgs" -}}
{{- if include "groundwatch.calibrationConfigMap" . }}, "--config", "/etc/groundwatch/calibration/{{ .Values.calibration.key }}"{{ end }}
{{- end }}

{{- define "groundwatch.calibrationVolumeMounts" -}}
{{- if include "groundwatch.calibrationConfigMap" . }}
- name: calibration
  mountPath: /etc/groundwatch/calibration
  readOnly: true
{{- end }}
{{- end }}

{{- define "groundwatch.calibrationVolumes" -}}
{{- if include "groundwatch.calibrationConfigMap" . }}
- name: calibration
  configMap:
    name: {{ include "groundwatch.calibrationConfigMap" . }}
    items:
      - key: {{ .Values.calibration.key }}
        path: {{ .Values.calibration.key }}
{{- end }}
{{- end }}
