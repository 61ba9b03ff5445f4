"""The chart's `serve` objects: Deployment + Service + HPA (+ NetworkPolicy, ServiceMonitor), off by default."""

from __future__ import annotations

from tests.helm.test_chart import _kinds, _one


def _serve(manifests: list[dict], kind: str) -> dict:
    return _one(manifests, kind, "-serve")


def test_serve_is_off_by_default(render) -> None:
    manifests = render("default")
    assert not [m for m in manifests if m["metadata"]["name"].endswith("-serve")]
    assert "HorizontalPodAutoscaler" not in _kinds(manifests)


def test_serve_deployment_runs_groundwatch_serve_locked_down(render) -> None:
    manifests = render("serve")
    pod = _serve(manifests, "Deployment")["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["command"] + container["args"] == ["groundwatch", "serve", "--publish"]
    assert container["ports"] == [{"name": "http", "containerPort": 8080, "protocol": "TCP"}]
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert {"name": "tmp", "mountPath": "/tmp"} in container["volumeMounts"]
    env = {e["name"]: e for e in container["env"]}
    assert env["GROUNDWATCH_SERVE__PORT"]["value"] == "8080"
    # serve binds 127.0.0.1 by default; the pod must listen on its own address for the probes and Service.
    assert env["GROUNDWATCH_SERVE__HOST"]["value"] == "0.0.0.0"
    assert env["GROUNDWATCH_SERVE__AUTH_TOKEN"]["valueFrom"]["secretKeyRef"] == {"name": "groundwatch-serve",
                                                                                   "key": "token"}
    config = _one(manifests, "ConfigMap", "groundwatch")["data"]
    assert config["GROUNDWATCH_SERVE__DEADLINE_S"] == "2"


def test_serve_service_and_hpa_point_at_the_serve_pods(render) -> None:
    manifests = render("serve")
    deployment = _serve(manifests, "Deployment")
    service = _serve(manifests, "Service")
    hpa = _serve(manifests, "HorizontalPodAutoscaler")["spec"]
    assert "replicas" not in deployment["spec"]  # the HPA owns the count
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert labels["app.kubernetes.io/component"] == "serve"
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"] == [{"name": "http", "port": 8080, "targetPort": "http", "protocol": "TCP"}]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                     "name": deployment["metadata"]["name"]}
    assert (hpa["minReplicas"], hpa["maxReplicas"]) == (2, 10)
    # The consumer's objects still select only the consumer.
    consumer = _one(manifests, "Deployment", "gw-groundwatch")
    assert consumer["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"] == "consumer"
    assert _one(manifests, "Service", "gw-groundwatch")["spec"]["selector"]["app.kubernetes.io/component"] == "consumer"
    monitor = _serve(manifests, "ServiceMonitor")["spec"]
    assert monitor["endpoints"][0]["port"] == "http" and monitor["selector"]["matchLabels"].items() <= labels.items()


def test_serve_without_hpa_has_a_replica_count_and_no_publish_egress(render) -> None:
    manifests = render("default", "--set", "serve.enabled=true", "--set", "serve.autoscaling.enabled=false")
    assert _serve(manifests, "Deployment")["spec"]["replicas"] == 2
    assert "HorizontalPodAutoscaler" not in _kinds(manifests)
    policy = _serve(manifests, "NetworkPolicy")["spec"]
    assert policy["ingress"][0]["ports"] == [{"port": "http", "protocol": "TCP"}]
    assert [p["port"] for rule in policy["egress"] for p in rule["ports"]] == [53, 53]  # DNS only
    container = _serve(manifests, "Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert container["args"] == ["serve"]
    assert "GROUNDWATCH_SERVE__AUTH_TOKEN" not in {e["name"] for e in container["env"]}


def test_gpu_profile_serves_the_fp16_export_on_t4(render) -> None:
    manifests = render("gpu-t4+serve")
    config = _one(manifests, "ConfigMap", "groundwatch")["data"]
    assert config["GROUNDWATCH_SCORER__MODEL_DIR"] == "/opt/groundwatch/models/nli-minilm-fp16"
    assert config["GROUNDWATCH_SCORER__PROVIDERS"] == "cuda"
    pod = _serve(manifests, "Deployment")["spec"]["template"]["spec"]
    assert pod["containers"][0]["image"].endswith(":0.1.3-cuda")
    assert pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert pod["nodeSelector"] == {"nvidia.com/gpu.product": "Tesla-T4"}


def test_publish_without_a_token_does_not_render(helm) -> None:
    import subprocess

    from tests.helm.conftest import CHART

    result = subprocess.run([helm, "template", "gw", str(CHART), "--set", "serve.enabled=true",
                             "--set", "serve.publish=true"], capture_output=True, text=True)
    assert result.returncode != 0 and "serve.publish needs serve.authTokenSecret.name" in result.stderr
