"""deploy/: the kustomize tree renders (with `kubectl kustomize`, and with a small renderer of our own
that always runs), the compose file parses (with `docker compose`/`docker-compose config`, installed
from Debian in the set-up when missing and possible, and always with PyYAML), and both describe what
the operations guide promises. No Docker engine is needed: nothing is built or started here."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
COMPOSE = DEPLOY / "docker-compose.yml"
INSTALL_TIMEOUT_S = 300


# --------------------------------------------------------------------------------------------------
# Kubernetes

def render_ourselves(root: Path) -> list[dict]:
    """What `kubectl kustomize` does with the features this tree uses: resources, labels, generated
    ConfigMaps (with a stable suffix) and references to them, image overrides."""
    kustomization = yaml.safe_load((root / "kustomization.yaml").read_text())
    allowed = {"apiVersion", "kind", "labels", "resources", "configMapGenerator", "images"}
    assert set(kustomization) <= allowed, f"the renderer does not know {set(kustomization) - allowed}"
    docs = [d for name in kustomization["resources"] for d in yaml.safe_load_all((root / name).read_text()) if d]
    names = {}
    for generator in kustomization.get("configMapGenerator", []):
        data = {}
        for literal in generator.get("literals", []):
            key, _, value = literal.partition("=")
            data[key] = value
        for name in generator.get("files", []):
            data[Path(name).name] = (root / name).read_text()
        suffixed = f"{generator['name']}-generated"
        names[generator["name"]] = suffixed
        docs.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": suffixed}, "data": data})
    for doc in docs:
        for label in kustomization.get("labels", []):
            doc["metadata"].setdefault("labels", {}).update(label["pairs"])
        _rename_config_maps(doc, names)
        for container in _containers(doc):
            for image in kustomization.get("images", []):
                if container["image"].split(":")[0] == image["name"]:
                    container["image"] = f"{image['newName']}:{image['newTag']}"
    return docs


def _rename_config_maps(node, names: dict) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("configMapRef", "configMap") and isinstance(value, dict) and value.get("name") in names:
                value["name"] = names[value["name"]]
            else:
                _rename_config_maps(value, names)
    elif isinstance(node, list):
        for item in node:
            _rename_config_maps(item, names)


def _containers(doc: dict) -> list[dict]:
    return doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])


def kubectl() -> str | None:
    return shutil.which("kubectl")


def render_with_kubectl() -> list[dict]:
    done = subprocess.run([kubectl(), "kustomize", str(K8S)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def renderings() -> list[tuple[str, list[dict]]]:
    found = [("our renderer", render_ourselves(K8S))]
    if kubectl():
        found.append(("kubectl kustomize", render_with_kubectl()))
    return found


def by_kind(docs: list[dict], kind: str, name: str) -> dict:
    matches = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(matches) == 1, f"{kind}/{name}: {len(matches)} found"
    return matches[0]


def check_manifests(docs: list[dict]) -> None:
    for doc in docs:
        assert doc["metadata"]["labels"]["app.kubernetes.io/part-of"] == "talon"
    api = by_kind(docs, "Deployment", "talon-api")
    pod = api["spec"]["template"]
    labels = pod["metadata"]["labels"]
    assert api["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    (container,) = pod["spec"]["containers"]
    assert container["image"] == "talon:latest" and container["args"] == ["api"]
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["startupProbe"]["httpGet"]["path"] == "/livez"
    port = container["ports"][0]
    assert port["containerPort"] == 8000 and container["livenessProbe"]["httpGet"]["port"] == port["name"]
    env = {e["name"]: e for e in container["env"]}
    assert env["OPERATOR_TOKEN"]["valueFrom"]["secretKeyRef"]["name"] == "talon-secrets"
    assert env["PROMETHEUS_MULTIPROC_DIR"]["value"].startswith("/tmp/")
    config_name = container["envFrom"][0]["configMapRef"]["name"]
    config = by_kind(docs, "ConfigMap", config_name)
    assert config["data"]["REDIS_URL"].startswith("redis://")

    service = by_kind(docs, "Service", "talon-api")
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == port["name"]
    hpa = by_kind(docs, "HorizontalPodAutoscaler", "talon-api")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "talon-api"}
    assert 1 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    pdb = by_kind(docs, "PodDisruptionBudget", "talon-api")
    assert pdb["apiVersion"] == "policy/v1"
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]  # a drain can always proceed

    worker = by_kind(docs, "Deployment", "talon-worker")
    (wc,) = worker["spec"]["template"]["spec"]["containers"]
    assert wc["args"] == ["worker"] and wc["envFrom"][0]["configMapRef"]["name"] == config_name
    assert worker["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True

    redis = by_kind(docs, "StatefulSet", "talon-redis")
    volumes = {v["name"]: v for v in redis["spec"]["template"]["spec"]["volumes"]}
    redis_conf = by_kind(docs, "ConfigMap", volumes["config"]["configMap"]["name"])["data"]["redis.conf"]
    settings = dict(line.split(None, 1) for line in redis_conf.splitlines() if line and not line.startswith("#"))
    assert settings["appendonly"] == "yes" and settings["maxmemory-policy"] == "noeviction"
    assert by_kind(docs, "Service", "talon-redis")["spec"]["ports"][0]["port"] == 6379
    assert "talon-redis:6379" in config["data"]["REDIS_URL"]


def test_the_kustomize_tree_renders_and_holds_what_operations_need():
    rendered = renderings()
    for how, docs in rendered:
        try:
            check_manifests(docs)
        except AssertionError as exc:
            raise AssertionError(f"{how}: {exc}") from exc
    kinds = [sorted((d["kind"], d["metadata"]["name"].split("-generated")[0]) for d in docs) for _, docs in rendered]
    if len(kinds) == 2:  # our renderer and kubectl agree on what there is (kubectl hashes ConfigMap names)
        assert [(k, re.sub(r"-[a-z0-9]{10}$", "", n)) for k, n in kinds[1]] == kinds[0]


def test_our_renderer_catches_a_broken_tree(tmp_path):
    broken = tmp_path / "k8s"
    shutil.copytree(K8S, broken)
    api = (broken / "api.yaml").read_text().replace("path: /readyz", "path: /livez")
    (broken / "api.yaml").write_text(api)
    with pytest.raises(AssertionError):
        check_manifests(render_ourselves(broken))


# --------------------------------------------------------------------------------------------------
# Compose

def compose_command() -> list[str] | None:
    """`docker compose`, else `docker-compose`; installed from Debian here if neither exists and we can."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if not shutil.which("docker-compose") and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "docker-compose"]
        if subprocess.run(install, capture_output=True, env=env, timeout=INSTALL_TIMEOUT_S).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env, timeout=INSTALL_TIMEOUT_S)
            subprocess.run(install, capture_output=True, env=env, timeout=INSTALL_TIMEOUT_S)
    return ["docker-compose"] if shutil.which("docker-compose") else None


def check_compose(spec: dict) -> None:
    services = spec["services"]
    assert set(services) == {"redis", "api", "worker", "rq-dashboard"}
    redis = services["redis"]
    command = redis["command"] if isinstance(redis["command"], list) else redis["command"].split()
    pairs = dict(zip(command[1::2], command[2::2]))
    assert pairs["--appendonly"] == "yes" and pairs["--maxmemory-policy"] == "noeviction"
    assert "/data" in [_volume(v)[1] for v in redis["volumes"]] and "healthcheck" in redis
    for name in ("api", "worker", "rq-dashboard"):
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["api"]["command"] == ["api"] and services["worker"]["command"] == ["worker"]
    assert services["rq-dashboard"]["command"] == ["dashboard"]
    assert services["rq-dashboard"]["environment"]["RQ_DASHBOARD_PASSWORD"]
    for name in ("api", "rq-dashboard"):
        assert all(str(p).startswith("127.0.0.1:") for p in services[name]["ports"]), "published on loopback only"
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = _volume(volume)[0]
            assert source.startswith((".", "/")) or source in (spec.get("volumes") or {}), (name, volume)


def _volume(volume) -> tuple[str, str]:
    """(source, target) of a short (`src:dst[:mode]`) or long (`{source, target}`) volume entry."""
    if isinstance(volume, dict):
        return volume["source"], volume["target"]
    source, target = volume.split(":")[:2]
    return source, target


def test_the_compose_file_parses_and_holds_what_operations_need():
    check_compose(yaml.safe_load(COMPOSE.read_text()))  # merge keys resolved by PyYAML
    command = compose_command()
    if command is not None:
        env = {**os.environ, "OPERATOR_TOKEN": "compose-test-token"}
        done = subprocess.run([*command, "-f", str(COMPOSE), "config"], capture_output=True, text=True,
                              env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        resolved = yaml.safe_load(done.stdout)
        check_compose(resolved)
        assert resolved["services"]["api"]["environment"]["OPERATOR_TOKEN"] == "compose-test-token"
        refused = subprocess.run([*command, "-f", str(COMPOSE), "config"], capture_output=True, text=True,
                                 env={k: v for k, v in os.environ.items() if k != "OPERATOR_TOKEN"}, timeout=120)
        assert refused.returncode != 0 and "OPERATOR_TOKEN" in refused.stderr  # no default operator token


# --------------------------------------------------------------------------------------------------
# The image

def test_the_dockerfile_is_multi_stage_and_runs_as_a_user():
    lines = [line.strip() for line in (DEPLOY / "Dockerfile").read_text().splitlines()
             if line.strip() and not line.strip().startswith("#")]
    stages = [line for line in lines if line.startswith("FROM ")]
    assert len(stages) >= 2 and " AS build" in stages[0]
    final = lines[lines.index(stages[-1]):]
    assert any(line.startswith("COPY --from=build ") for line in final)
    users = [line.split()[1] for line in final if line.startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert any(line.startswith("ENTRYPOINT ") for line in final) and any(line.startswith("HEALTHCHECK ") for line in final)
    copied = {line.split()[-2] for line in lines if line.startswith("COPY ") and "--from" not in line}
    for source in copied - {"./"}:
        assert (REPO / source.lstrip("./")).exists() or source == "pyproject.toml", source
    entrypoint = DEPLOY / "docker-entrypoint.sh"
    assert os.access(entrypoint, os.X_OK)
    assert subprocess.run(["sh", "-n", str(entrypoint)]).returncode == 0
    # The roles the manifests and the compose file ask for exist in the entrypoint.
    text = entrypoint.read_text()
    for role in ("api)", "worker)", "dashboard)"):
        assert role in text


def test_the_entrypoint_runs_any_other_command(tmp_path):
    done = subprocess.run([str(DEPLOY / "docker-entrypoint.sh"), "echo", "hello"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "hello\n"
