"""helm lint and helm template for every values profile; rendered manifests validated offline."""

from __future__ import annotations

import json
import subprocess

import kubernetes_validate
import pytest
import yaml

from tests.helm.conftest import CHART, PROFILES, helm_args

# Kubernetes versions the chart supports (Chart.yaml kubeVersion) up to the newest schema.
KUBE_VERSIONS = ["1.25.0", kubernetes_validate.latest_version()]
CRDS = {
    "ServiceMonitor": "monitoring.coreos.com/v1",
    "PrometheusRule": "monitoring.coreos.com/v1",
    "ScaledObject": "keda.sh/v1alpha1",
    "TriggerAuthentication": "keda.sh/v1alpha1",
}


def _one(manifests: list[dict], kind: str, suffix: str = "") -> dict:
    found = [m for m in manifests if m["kind"] == kind and m["metadata"]["name"].endswith(suffix)]
    assert len(found) == 1, f"expected one {kind}*{suffix}, got {len(found)}"
    return found[0]


def _kinds(manifests: list[dict]) -> set[str]:
    return {m["kind"] for m in manifests}


@pytest.mark.parametrize("profile", PROFILES)
def test_lint_strict(helm: str, profile: str) -> None:
    result = subprocess.run([helm, "lint", "--strict", str(CHART), *helm_args(profile)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("profile", PROFILES)
def test_manifests_validate(render, profile: str) -> None:
    for manifest in render(profile):
        kind = manifest["kind"]
        if kind in CRDS:
            # Custom resources are unknown to kubernetes-validate: check their shape.
            assert manifest["apiVersion"] == CRDS[kind]
            assert manifest["metadata"]["name"] and isinstance(manifest["spec"], dict)
            continue
        for version in KUBE_VERSIONS:
            kubernetes_validate.validate(manifest, version, strict=True)


def test_custom_resources_have_their_required_spec(render) -> None:
    manifests = render("gpu-t4+keda")
    monitor = _one(manifests, "ServiceMonitor")["spec"]
    assert monitor["endpoints"][0]["port"] == "metrics" and monitor["selector"]["matchLabels"]

    scaled = _one(manifests, "ScaledObject")["spec"]
    trigger = scaled["triggers"][0]
    assert scaled["scaleTargetRef"]["name"] == _one(manifests, "Deployment")["metadata"]["name"]
    assert trigger["type"] == "kafka" and trigger["metadata"]["topic"] == "rag-responses"
    assert trigger["metadata"]["consumerGroup"] == "groundwatch"
    assert trigger["authenticationRef"]["name"] == _one(manifests, "TriggerAuthentication")["metadata"]["name"]


def test_prometheus_rule_is_the_tested_rule_file(render) -> None:
    rule = _one(render("default"), "PrometheusRule")
    assert rule["spec"] == yaml.safe_load((CHART / "files" / "alerts.yaml").read_text())


def test_drop_test_level_and_window_size_come_from_values(render) -> None:
    rule = _one(render("default", "--set", "prometheusRule.faithfulnessDrop.z=3.09",
                       "--set", "prometheusRule.faithfulnessDrop.minResponses=500"), "PrometheusRule")
    settings = {r["record"]: r["expr"] for group in rule["spec"]["groups"] for r in group["rules"]
                if r.get("record", "").startswith("groundwatch:alert_setting:")}
    assert settings == {"groundwatch:alert_setting:faithfulness_drop_z": "vector(3.09)",
                        "groundwatch:alert_setting:faithfulness_drop_min_responses": "vector(500)"}


def test_consumer_pod_is_locked_down(render) -> None:
    pod = _one(render("default"), "Deployment")["spec"]["template"]["spec"]
    container = pod["containers"][0]
    security = container["securityContext"]

    assert pod["securityContext"]["runAsNonRoot"] is True
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    assert {"name": "tmp", "mountPath": "/tmp"} in container["volumeMounts"]
    assert "emptyDir" in next(v for v in pod["volumes"] if v["name"] == "tmp")


def test_probes_and_metrics_share_one_port(render) -> None:
    container = _one(render("default"), "Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] + container["args"] == ["groundwatch", "consume"]
    assert container["ports"] == [{"name": "metrics", "containerPort": 9108, "protocol": "TCP"}]
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "metrics"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "metrics"}
    # The endpoint binds 127.0.0.1 by default; in the pod it must listen on the pod's address.
    config = _one(render("default"), "ConfigMap", "groundwatch")["data"]
    assert config["GROUNDWATCH_METRICS__HOST"] == "0.0.0.0" and config["GROUNDWATCH_METRICS__PORT"] == "9108"


def test_termination_grace_covers_the_shutdown_deadline(helm: str, render) -> None:
    pod = _one(render("default"), "Deployment")["spec"]["template"]["spec"]
    assert pod["terminationGracePeriodSeconds"] >= 30 + 5
    for extra in (["--set", "terminationGracePeriodSeconds=20"],
                  ["--set-json", 'settings.consumer={"shutdown_timeout_s": 58}']):
        result = subprocess.run([helm, "template", "gw", str(CHART), *extra], capture_output=True, text=True)
        assert result.returncode != 0 and "shutdown_timeout_s" in result.stderr


def test_settings_and_secrets_reach_the_environment(render) -> None:
    manifests = render("default", "--set", "settings.scorer.tau_entailment=0.7",
                       "--set-json", "settings.scorer.max_record_bytes=2000000")
    data = _one(manifests, "ConfigMap", "groundwatch")["data"]
    env = _one(manifests, "Deployment")["spec"]["template"]["spec"]["containers"][0]["env"]

    assert data["GROUNDWATCH_KAFKA__BOOTSTRAP_SERVERS"] == "kafka:9092"
    assert data["GROUNDWATCH_KAFKA__INPUT_TOPIC"] == "rag-responses"
    assert data["GROUNDWATCH_METRICS__PORT"] == "9108"
    assert data["GROUNDWATCH_OPENSEARCH__URL"] == "https://opensearch:9200"
    assert data["GROUNDWATCH_SCORER__TAU_ENTAILMENT"] == "0.7"
    assert data["GROUNDWATCH_SCORER__MAX_RECORD_BYTES"] == "2000000"  # not 2e+06
    assert {e["name"]: e["valueFrom"]["secretKeyRef"]["name"] for e in env} == {
        "GROUNDWATCH_KAFKA__SASL_PASSWORD": "groundwatch-kafka",
        "GROUNDWATCH_OPENSEARCH__PASSWORD": "groundwatch-opensearch",
    }


def test_gpu_profile_schedules_on_t4_and_cpu_profile_does_not(render) -> None:
    gpu = _one(render("gpu-t4"), "Deployment")["spec"]["template"]["spec"]
    cpu = _one(render("cpu"), "Deployment")["spec"]["template"]["spec"]

    assert gpu["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert gpu["nodeSelector"] == {"nvidia.com/gpu.product": "Tesla-T4"}
    assert gpu["tolerations"][0]["key"] == "nvidia.com/gpu"
    assert "nvidia.com/gpu" not in json.dumps(cpu)


def test_keda_owns_the_replica_count(render) -> None:
    plain, keda = render("default"), render("keda")
    assert _one(plain, "Deployment")["spec"]["replicas"] == 1
    assert "ScaledObject" not in _kinds(plain)
    assert "replicas" not in _one(keda, "Deployment")["spec"]


def test_optional_objects_can_be_switched_off(render) -> None:
    manifests = render("default", "--set", "serviceMonitor.enabled=false",
                       "--set", "prometheusRule.enabled=false", "--set", "networkPolicy.enabled=false",
                       "--set", "podDisruptionBudget.enabled=false", "--set", "recallProbe.enabled=false")
    assert _kinds(manifests) & {"ServiceMonitor", "PrometheusRule", "NetworkPolicy",
                                "PodDisruptionBudget", "CronJob"} == set()


def test_recall_probe_cronjob_command(render) -> None:
    job = _one(render("default"), "CronJob")["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    container = job["containers"][0]
    assert container["command"] + container["args"] == [
        "groundwatch", "recall-probe", "--input", "/probes/probes.jsonl", "--retriever", "opensearch",
        "--index", "rag-passages", "--pushgateway", "http://prometheus-pushgateway.monitoring:9091",
    ]
    assert container["securityContext"]["readOnlyRootFilesystem"] is True


def test_dashboards_and_opensearch_files_are_shipped(render) -> None:
    manifests = render("default", "--set", "opensearch.retentionMonths=7")
    dashboard = _one(manifests, "ConfigMap", "-dashboard")
    opensearch = _one(manifests, "ConfigMap", "-opensearch")["data"]
    policy = json.loads(opensearch["ism-policy.json"])["policy"]

    assert dashboard["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert json.loads(dashboard["data"]["groundwatch.json"])["uid"] == "groundwatch"
    assert policy["states"][0]["transitions"][0]["conditions"]["min_index_age"] == "248d"  # (7 + 1) x 31
    assert opensearch["opensearch-dashboards.ndjson"].count("\n") == 2


@pytest.mark.parametrize("profile", PROFILES)
def test_every_env_var_is_a_known_setting(render, profile: str) -> None:
    # The app ignores unknown GROUNDWATCH_* variables, so a typo here would pass silently.
    from groundwatch.config.settings import Settings

    manifests = render(profile)
    containers = [m["spec"]["template"]["spec"]["containers"][0] for m in manifests if m["kind"] == "Deployment"]
    names = [*_one(manifests, "ConfigMap", "groundwatch")["data"],
             *(e["name"] for container in containers for e in container["env"])]
    for name in names:
        section, field = name.removeprefix("GROUNDWATCH_").lower().split("__")
        assert field in Settings.model_fields[section].annotation.model_fields, name


def test_calibration_file_is_mounted_and_passed_as_config(render, tmp_path) -> None:
    """A recalibrated settings file (groundwatch eval --calibration-out) reaches the consumer and serve."""
    none = render("serve")
    assert not [m for m in none if m["kind"] == "ConfigMap" and m["metadata"]["name"].endswith("-calibration")]
    assert [m for m in none if m["kind"] == "Deployment" and m["metadata"]["name"] == "gw-groundwatch"][0]["spec"]["template"]["spec"]["containers"][0]["args"] == ["consume"]

    calibration = CHART.parents[1] / "scorers" / "calibration.json"
    manifests = render("serve", "--set-file", f"calibration.json={calibration}")
    [config_map] = [m for m in manifests if m["kind"] == "ConfigMap" and m["metadata"]["name"] == "gw-groundwatch-calibration"]
    assert json.loads(config_map["data"]["calibration.json"]) == json.loads(calibration.read_text())
    for deployment in (m for m in manifests if m["kind"] == "Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        container = pod["containers"][0]
        assert container["args"][-2:] == ["--config", "/etc/groundwatch/calibration/calibration.json"]
        assert {"name": "calibration", "mountPath": "/etc/groundwatch/calibration", "readOnly": True} \
            in container["volumeMounts"]
        [volume] = [v for v in pod["volumes"] if v["name"] == "calibration"]
        assert volume["configMap"]["name"] == "gw-groundwatch-calibration"

    for manifest in manifests:
        if manifest["kind"] not in CRDS:
            for version in KUBE_VERSIONS:
                kubernetes_validate.validate(manifest, version, strict=True)

    existing = render("default", "--set", "calibration.configMap=team-calibration")
    pod = _one(existing, "Deployment")["spec"]["template"]["spec"]
    assert [v for v in pod["volumes"] if v["name"] == "calibration"][0]["configMap"]["name"] == "team-calibration"
