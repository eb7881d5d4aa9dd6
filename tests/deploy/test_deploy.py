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

from events.connection import CLUSTER_SCHEME, _cluster_nodes

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
SCALED = DEPLOY / "scaled"
COMPOSE = DEPLOY / "docker-compose.yml"
INSTALL_TIMEOUT_S = 300


# --------------------------------------------------------------------------------------------------
# Kubernetes

KNOWN_FIELDS = {"apiVersion", "kind", "labels", "resources", "configMapGenerator", "images", "patches"}
KNOWN_GENERATOR_FIELDS = {"name", "behavior", "literals", "files"}


def render_ourselves(root: Path) -> list[dict]:
    """What `kubectl kustomize` does with the features these trees use: resources (files, or directories
    holding another kustomization), labels, generated ConfigMaps (with a stable suffix, merged into a
    base's with `behavior: merge`) and references to them, inline strategic-merge patches (deleting or
    merging into a resource that must exist), image overrides. Anything else is refused rather than
    skipped, so a field this renderer ignores can never make a test pass."""
    return _render(root)[0]


def _render(root: Path) -> tuple[list[dict], dict[str, str]]:
    """The documents and the generated ConfigMaps' names (as written -> as rendered), which an overlay
    needs to merge into a base's ConfigMap and to rename references to it in its own resources."""
    kustomization = yaml.safe_load((root / "kustomization.yaml").read_text())
    assert set(kustomization) <= KNOWN_FIELDS, f"the renderer does not know {set(kustomization) - KNOWN_FIELDS}"
    docs, names = _resources(root, kustomization.get("resources", []))
    for generator in kustomization.get("configMapGenerator", []):
        _generate(root, generator, docs, names)
    for patch in kustomization.get("patches", []):
        _patch(docs, patch)
    for doc in docs:
        for label in kustomization.get("labels", []):
            doc["metadata"].setdefault("labels", {}).update(label["pairs"])
        _rename_config_maps(doc, names)
        for container in _containers(doc):
            for image in kustomization.get("images", []):
                if container["image"].split(":")[0] == image["name"]:
                    container["image"] = f"{image['newName']}:{image['newTag']}"
    return docs, names


def _resources(root: Path, entries: list[str]) -> tuple[list[dict], dict[str, str]]:
    docs, names = [], {}
    for entry in entries:
        path = root / entry
        if path.is_dir():  # a base: rendered whole (its labels, generators, patches) before this level's
            base_docs, base_names = _render(path)
            docs += base_docs
            names.update(base_names)
        else:
            docs += [d for d in yaml.safe_load_all(path.read_text()) if d]
    return docs, names


def _generate(root: Path, generator: dict, docs: list[dict], names: dict[str, str]) -> None:
    unknown = set(generator) - KNOWN_GENERATOR_FIELDS
    assert not unknown, f"the renderer does not know configMapGenerator fields {unknown}"
    data = {}
    for literal in generator.get("literals", []):
        key, _, value = literal.partition("=")
        data[key] = value
    for name in generator.get("files", []):
        data[Path(name).name] = (root / name).read_text()
    behavior = generator.get("behavior", "create")
    if behavior == "merge":  # kustomize fails when there is nothing to merge into; so do we
        assert generator["name"] in names, f"configMapGenerator {generator['name']}: no ConfigMap to merge into"
        by_kind(docs, "ConfigMap", names[generator["name"]])["data"].update(data)
        return
    assert behavior == "create", f"the renderer does not know configMapGenerator behavior {behavior!r}"
    assert generator["name"] not in names, f"configMapGenerator {generator['name']} already exists"
    suffixed = f"{generator['name']}-generated"
    names[generator["name"]] = suffixed
    docs.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": suffixed}, "data": data})


def _patch(docs: list[dict], entry: dict) -> None:
    """An inline strategic-merge patch. Its target is the resource with its apiVersion, kind and name,
    which must exist (kustomize fails on a patch that matches nothing, and a renamed base would
    otherwise leave the overlay's patch silently unapplied)."""
    assert set(entry) == {"patch"}, f"the renderer only knows inline patches, not {set(entry) - {'patch'}}"
    patch = yaml.safe_load(entry["patch"])
    key = (patch["apiVersion"], patch["kind"], patch["metadata"]["name"])
    matches = [d for d in docs if (d["apiVersion"], d["kind"], d["metadata"]["name"]) == key]
    assert len(matches) == 1, f"patch for {'/'.join(key)}: {len(matches)} resources match"
    directive = patch.pop("$patch", None)
    if directive == "delete":
        docs.remove(matches[0])
        return
    assert directive is None, f"the renderer does not know $patch: {directive}"
    _merge(matches[0], patch)


def _merge(target: dict, patch: dict) -> None:
    """Strategic merge for maps: nested maps merge, a null removes the key, scalars replace. Lists are
    refused: strategic merge combines them by merge keys (containers by name...), which this renderer
    does not model, and replacing them wholesale would render something kustomize does not."""
    for key, value in patch.items():
        assert not isinstance(value, list), f"the renderer does not merge lists (at {key!r})"
        assert not str(key).startswith("$"), f"the renderer does not know the directive {key}"
        if value is None:
            target.pop(key, None)
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        else:
            target[key] = value


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


def render_with_kubectl(root: Path) -> list[dict]:
    done = subprocess.run([kubectl(), "kustomize", str(root)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def renderings(root: Path) -> list[tuple[str, list[dict]]]:
    found = [("our renderer", render_ourselves(root))]
    if kubectl():
        found.append(("kubectl kustomize", render_with_kubectl(root)))
    return found


def check_renderings(rendered: list[tuple[str, list[dict]]], check) -> None:
    """`check` holds for every rendering, and our renderer and kubectl agree on what there is (kubectl
    hashes ConfigMap names where ours appends -generated)."""
    for how, docs in rendered:
        try:
            check(docs)
        except AssertionError as exc:
            raise AssertionError(f"{how}: {exc}") from exc
    kinds = [sorted((d["kind"], d["metadata"]["name"].split("-generated")[0]) for d in docs) for _, docs in rendered]
    if len(kinds) == 2:
        assert [(k, re.sub(r"-[a-z0-9]{10}$", "", n)) for k, n in kinds[1]] == kinds[0]


def by_kind(docs: list[dict], kind: str, name: str) -> dict:
    matches = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(matches) == 1, f"{kind}/{name}: {len(matches)} found"
    return matches[0]


def check_manifests(docs: list[dict]) -> None:
    """The base (deploy/k8s): the shared workloads and the one Redis that holds everything."""
    for doc in docs:
        assert doc["metadata"]["labels"]["app.kubernetes.io/part-of"] == "talon"
    config = check_talon_workloads(docs)
    check_selectors(docs)
    redis = by_kind(docs, "StatefulSet", "talon-redis")
    volumes = {v["name"]: v for v in redis["spec"]["template"]["spec"]["volumes"]}
    redis_conf = by_kind(docs, "ConfigMap", volumes["config"]["configMap"]["name"])["data"]["redis.conf"]
    settings = dict(line.split(None, 1) for line in redis_conf.splitlines() if line and not line.startswith("#"))
    assert settings["appendonly"] == "yes" and settings["maxmemory-policy"] == "noeviction"
    assert settings.get("protected-mode", "yes") == "yes" and "requirepass" not in settings  # not in a ConfigMap
    assert by_kind(docs, "Service", "talon-redis")["spec"]["ports"][0]["port"] == 6379
    check_redis_password(redis["spec"]["template"]["spec"]["containers"][0], "$(REDIS_PASSWORD)")
    check_only_talon_reaches(docs, "talon-redis", redis)
    secret = documented_secret(K8S)
    assert secret["REDIS_URL"] == "redis://:$REDIS_PASSWORD@talon-redis:6379/0"
    assert "REDIS_URL" not in config["data"]


def check_talon_workloads(docs: list[dict]) -> dict:
    """What every layout shares: the API (probes, port, secret, non-root), its Service, HPA and PDB, the
    worker reading the same settings. Returns the ConfigMap they read (its name is hashed by kubectl)."""
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
    port, health = container["ports"]
    assert port["containerPort"] == 8000 and health["containerPort"] == 8001  # the image's TALON_HEALTH_BIND
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["port"] == health["name"]
    env = {e["name"]: e for e in container["env"]}
    assert env["OPERATOR_TOKEN"]["valueFrom"]["secretKeyRef"]["name"] == "talon-secrets"
    assert env["PROMETHEUS_MULTIPROC_DIR"]["value"].startswith("/tmp/")
    config_name = container["envFrom"][0]["configMapRef"]["name"]
    config = by_kind(docs, "ConfigMap", config_name)
    # Redis's URL carries its password: it comes from the Secret talon-redis, never from the ConfigMap.
    assert "REDIS_URL" not in config["data"] and "EVENTS_REDIS_URL" not in config["data"]
    assert {"secretRef": {"name": "talon-redis"}} in container["envFrom"]

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
    assert {"secretRef": {"name": "talon-redis"}} in wc["envFrom"]
    assert worker["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    return config


def documented_secret(root: Path) -> dict[str, str]:
    """The talon-redis Secret as the tree's kustomization.yaml tells the operator to create it (it is
    never committed): its keys and values, `$REDIS_PASSWORD` standing for the password."""
    text = re.sub(r"\\\n#\s*", " ", (root / "kustomization.yaml").read_text())  # continuation lines joined
    (command,) = [line for line in text.splitlines() if "create secret generic talon-redis" in line]
    return dict(re.findall(r'--from-literal=(\w+)="([^"]*)"', command))


def check_redis_password(container: dict, reference: str) -> None:
    """A Redis server container: it requires the password of the Secret talon-redis (given as
    `reference` on its command line), its redis-cli authenticates, and protected mode stays on."""
    command = " ".join(container.get("command", []) + container.get("args", []))
    assert "protected-mode no" not in command, container["name"]
    assert re.search(r"--requirepass \"?" + re.escape(reference), command), container["name"]
    env = {e["name"]: e for e in container["env"]}
    for name in ("REDIS_PASSWORD", "REDISCLI_AUTH"):
        assert env[name]["valueFrom"]["secretKeyRef"] == {"name": "talon-redis", "key": "REDIS_PASSWORD"}, name


def check_only_talon_reaches(docs: list[dict], policy: str, workload: dict, also: tuple[str, ...] = ()) -> None:
    """A NetworkPolicy selects the workload's pods and admits the API's and the workers' pods (and the
    names in `also`) only, on Redis's port."""
    spec = by_kind(docs, "NetworkPolicy", policy)["spec"]
    assert spec["podSelector"]["matchLabels"].items() <= _pod_labels(workload).items()
    assert spec["policyTypes"] == ["Ingress"]
    admitted = {
        peer["podSelector"]["matchLabels"]["app.kubernetes.io/name"]
        for rule in spec["ingress"]
        for peer in rule["from"]
    }
    assert admitted == {"talon-api", "talon-worker", *also}, admitted
    assert all(set(peer) == {"podSelector"} for rule in spec["ingress"] for peer in rule["from"])
    assert {"protocol": "TCP", "port": 6379} in [port for rule in spec["ingress"] for port in rule["ports"]]


def check_selectors(docs: list[dict]) -> None:
    """Every workload selects its own pods and every Service selects some pod template: a typo in a
    label leaves a Service with no endpoints, which nothing else here would notice."""
    templates = [d for d in docs if "template" in d.get("spec", {})]
    pod_labels = [_pod_labels(d) for d in templates]
    for doc in templates:
        selector = doc["spec"].get("selector", {}).get("matchLabels", {})
        assert selector.items() <= _pod_labels(doc).items(), doc["metadata"]
    for service in (d for d in docs if d["kind"] == "Service"):
        selector = service["spec"]["selector"]
        name = service["metadata"]["name"]
        assert any(selector.items() <= labels.items() for labels in pod_labels), f"Service/{name} selects no pod"


def _pod_labels(doc: dict) -> dict:
    return doc["spec"]["template"].get("metadata", {}).get("labels", {})  # a Job's pods may have none


def stateful_pod_names(docs: list[dict]) -> set[str]:
    """The stable DNS names (`<set>-<n>.<headless service>`) the StatefulSets' pods get."""
    headless = {d["metadata"]["name"] for d in docs if d["kind"] == "Service" and d["spec"].get("clusterIP") == "None"}
    return {
        f"{s['metadata']['name']}-{n}.{s['spec']['serviceName']}"
        for s in docs
        if s["kind"] == "StatefulSet" and s["spec"]["serviceName"] in headless
        for n in range(s["spec"]["replicas"])
    }


def check_scaled(docs: list[dict], root: Path = SCALED) -> None:
    """The overlay (deploy/scaled, or a copy at `root`): what deploy/README.md's "Growing past one Redis"
    promises."""
    config = check_talon_workloads(docs)
    check_selectors(docs)
    assert not [d for d in docs if d["metadata"]["name"] == "talon-redis"], "the single Redis is gone"
    for doc in docs:  # the overlay's own Redis and HAProxy too: labelled, and never running as root
        assert doc["metadata"]["labels"]["app.kubernetes.io/part-of"] == "talon", doc["metadata"]["name"]
        if "template" in doc.get("spec", {}):
            assert doc["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True, doc["metadata"]["name"]
    assert by_kind(docs, "Deployment", "talon-api")["spec"]["replicas"] == 4
    assert by_kind(docs, "Deployment", "talon-worker")["spec"]["replicas"] == 4
    hpa = by_kind(docs, "HorizontalPodAutoscaler", "talon-api")["spec"]
    assert (hpa["minReplicas"], hpa["maxReplicas"]) == (4, 20)
    assert {"LOG_LEVEL", "WEB_CONCURRENCY", "TALON_SWEEP_INTERVAL_S"} <= set(config["data"])
    secret = documented_secret(root)
    assert secret["REDIS_URL"] == "redis://:$REDIS_PASSWORD@talon-queues:6379/0"
    assert not [d for d in docs if d["kind"] == "NetworkPolicy" and d["metadata"]["name"] == "talon-redis"]
    check_events_cluster(docs, secret["EVENTS_REDIS_URL"])
    check_queues_sentinel(docs)


def check_events_cluster(docs: list[dict], events_url: str) -> None:
    """Six nodes, joined by a Job naming all six with one replica each; the API reaches three of them
    through the URL form the app itself parses."""
    pods = stateful_pod_names(docs)
    assert events_url.startswith(CLUSTER_SCHEME)
    nodes, password, _ = _cluster_nodes(events_url)
    assert password == "$REDIS_PASSWORD"
    hosts = {node.host for node in nodes}
    assert hosts == {f"talon-events-{n}.talon-events" for n in range(3)} and hosts <= pods
    events = by_kind(docs, "StatefulSet", "talon-events")
    assert events["spec"]["replicas"] == 6 and events["spec"]["serviceName"] == "talon-events"
    (create,) = by_kind(docs, "Job", "talon-events-create")["spec"]["template"]["spec"]["containers"]
    joined = set(re.findall(r"(\S+):6379", " ".join(create["args"])))
    assert joined == {f"talon-events-{n}.talon-events" for n in range(6)} <= pods
    assert "--cluster-replicas 1" in " ".join(create["args"])
    (node,) = events["spec"]["template"]["spec"]["containers"]
    check_redis_password(node, "$REDIS_PASSWORD")
    assert '--masterauth "$REDIS_PASSWORD"' in " ".join(node["args"])
    assert {e["name"] for e in create["env"]} >= {"REDISCLI_AUTH"}
    check_only_talon_reaches(docs, "talon-events", events, also=("talon-events", "talon-events-create"))


def check_queues_sentinel(docs: list[dict]) -> None:
    """Three Redis nodes each with a Sentinel beside it, and HAProxy behind the talon-queues Service
    sending connections to the nodes by their stable names."""
    nodes = by_kind(docs, "StatefulSet", "talon-queues-node")
    assert nodes["spec"]["replicas"] == 3
    assert {c["name"] for c in nodes["spec"]["template"]["spec"]["containers"]} == {"redis", "sentinel"}
    haproxy = by_kind(docs, "Deployment", "talon-queues-haproxy")
    pod = haproxy["spec"]["template"]
    queues = by_kind(docs, "Service", "talon-queues")
    assert queues["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    assert queues["spec"]["ports"][0]["port"] == 6379
    (volume,) = pod["spec"]["volumes"]
    cfg = by_kind(docs, "ConfigMap", volume["configMap"]["name"])["data"]["haproxy.cfg"]
    servers = set(re.findall(r"^\s*server \S+ (\S+):6379", cfg, re.MULTILINE))
    assert servers == {f"talon-queues-node-{n}.talon-queues-nodes" for n in range(3)} <= stateful_pod_names(docs)
    containers = {c["name"]: c for c in nodes["spec"]["template"]["spec"]["containers"]}
    check_redis_password(containers["redis"], "$REDIS_PASSWORD")
    assert "sentinel auth-pass talon" in " ".join(containers["sentinel"]["args"])
    assert 'tcp-check send "AUTH ${REDIS_PASSWORD}' in cfg  # HAProxy's health check authenticates
    (proxy,) = pod["spec"]["containers"]
    assert proxy["env"][0]["valueFrom"]["secretKeyRef"] == {"name": "talon-redis", "key": "REDIS_PASSWORD"}
    check_only_talon_reaches(docs, "talon-queues-haproxy", haproxy)
    node_policy = by_kind(docs, "NetworkPolicy", "talon-queues-node")["spec"]
    assert {
        peer["podSelector"]["matchLabels"]["app.kubernetes.io/name"]
        for rule in node_policy["ingress"]
        for peer in rule["from"]
    } == {"talon-queues-haproxy", "talon-queues-node"}


def test_the_kustomize_tree_renders_and_holds_what_operations_need():
    check_renderings(renderings(K8S), check_manifests)


def redis_servers(docs: list[dict]) -> list[tuple[dict, dict]]:
    """(workload, container) of every Redis server (not a Sentinel, not a one-off Job) in the documents."""
    return [
        (doc, c)
        for doc in docs
        if doc["kind"] in ("StatefulSet", "Deployment")
        for c in _containers(doc)
        if c["image"].startswith("redis:") and c["name"] != "sentinel"
    ]


def test_finding_10_every_redis_requires_a_password_and_only_talon_reaches_it():
    """The review found deploy/k8s's Redis with `protected-mode no`, no password and no NetworkPolicy:
    any pod could read every hand and seed. Every Redis of both trees and of the compose file now
    requires the password of a Secret (compose: REDIS_PASSWORD), and a NetworkPolicy admits only
    Talon's pods to each."""
    for root in (K8S, SCALED):
        for how, docs in renderings(root):
            servers = redis_servers(docs)
            assert servers, (root, how)
            policies = [d["spec"]["podSelector"]["matchLabels"] for d in docs if d["kind"] == "NetworkPolicy"]
            for workload, container in servers:
                command = " ".join(container.get("command", []) + container.get("args", []))
                assert "--requirepass" in command and "protected-mode no" not in command, (how, container["name"])
                assert any(p.items() <= _pod_labels(workload).items() for p in policies), (how, workload["metadata"])
    assert "protected-mode no" not in "".join(
        p.read_text() for p in DEPLOY.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".conf")
    )
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert "--requirepass" in services["redis"]["command"] and "ports" not in services["redis"]


@pytest.mark.parametrize(
    "old, new",
    [
        ('args: ["/etc/redis/redis.conf", "--requirepass", "$(REDIS_PASSWORD)"]', 'args: ["/etc/redis/redis.conf"]'),
        ("app.kubernetes.io/name: talon-worker\n      ports:", "app.kubernetes.io/name: talon-dashboard\n      ports:"),
    ],
    ids=["no-password", "policy-admits-another-pod"],
)
def test_the_redis_checks_catch_an_open_redis(tmp_path, old, new):
    broken = tmp_path / "k8s"
    shutil.copytree(K8S, broken)
    text = (broken / "redis.yaml").read_text()
    assert old in text
    (broken / "redis.yaml").write_text(text.replace(old, new))
    with pytest.raises(AssertionError):
        check_manifests(render_ourselves(broken))


def test_our_renderer_catches_a_broken_tree(tmp_path):
    broken = tmp_path / "k8s"
    shutil.copytree(K8S, broken)
    api = (broken / "api.yaml").read_text().replace("path: /readyz", "path: /livez")
    (broken / "api.yaml").write_text(api)
    with pytest.raises(AssertionError):
        check_manifests(render_ourselves(broken))


def test_the_scaled_overlay_renders_and_holds_what_its_guide_promises():
    check_renderings(renderings(SCALED), check_scaled)


def broken_overlay(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the base and the overlay side by side (the overlay names ../k8s), one edit made."""
    shutil.copytree(K8S, tmp_path / "k8s")
    overlay = tmp_path / "scaled"
    shutil.copytree(SCALED, overlay)
    text = (overlay / "kustomization.yaml").read_text()
    assert old in text, old
    (overlay / "kustomization.yaml").write_text(text.replace(old, new))
    return overlay


@pytest.mark.parametrize(
    "old, new, reason",
    [
        ("metadata: {name: talon-worker}", "metadata: {name: talon-workers}", "0 resources match"),
        (
            "kind: Service\n      metadata: {name: talon-redis}",
            "kind: Service\n      metadata: {name: redis}",
            "0 resources match",
        ),
        (
            "patches:",
            "configMapGenerator:\n  - name: talon-settings\n    behavior: merge\n    literals: [A=b]\npatches:",
            "no ConfigMap to merge into",
        ),
        ("patches:", "namePrefix: scaled-\npatches:", "does not know"),
        ("spec: {minReplicas: 4, maxReplicas: 20}", "spec: {metrics: []}", "does not merge lists"),
    ],
    ids=["patch-target-missing", "delete-target-missing", "merge-target-missing", "unknown-field", "list-patch"],
)
def test_our_renderer_refuses_an_overlay_kustomize_would_not_render_as_we_do(tmp_path, old, new, reason):
    with pytest.raises(AssertionError, match=reason):
        render_ourselves(broken_overlay(tmp_path, old, new))


@pytest.mark.parametrize(
    "old, new",
    [
        ("spec: {replicas: 4}", "spec: {replicas: 3}"),
        ("talon-events-2.talon-events:6379", "talon-events-2.talon-event:6379"),
    ],
    ids=["replicas", "events-node-typo"],
)
def test_the_scaled_checks_catch_a_broken_overlay(tmp_path, old, new):
    overlay = broken_overlay(tmp_path, old, new)
    docs = render_ourselves(overlay)
    with pytest.raises(AssertionError):
        check_scaled(docs, overlay)


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
    password = pairs["--requirepass"]  # "${REDIS_PASSWORD:?...}" as written, the password once resolved
    assert password and "protected-mode" not in pairs and "ports" not in redis
    assert redis["environment"]["REDISCLI_AUTH"] == password
    for name in ("api", "worker", "rq-dashboard"):
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["environment"]["REDIS_URL"] == f"redis://:{password}@redis:6379/0"
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
        env = {**os.environ, "OPERATOR_TOKEN": "compose-test-token", "REDIS_PASSWORD": "compose-test-password"}
        done = subprocess.run(
            [*command, "-f", str(COMPOSE), "config"], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        resolved = yaml.safe_load(done.stdout)
        check_compose(resolved)
        assert resolved["services"]["api"]["environment"]["OPERATOR_TOKEN"] == "compose-test-token"
        assert resolved["services"]["redis"]["environment"]["REDISCLI_AUTH"] == "compose-test-password"
        for missing in ("OPERATOR_TOKEN", "REDIS_PASSWORD"):  # neither has a default
            refused = subprocess.run(
                [*command, "-f", str(COMPOSE), "config"],
                capture_output=True,
                text=True,
                env={k: v for k, v in env.items() if k != missing},
                timeout=120,
            )
            assert refused.returncode != 0 and missing in refused.stderr, missing


# --------------------------------------------------------------------------------------------------
# The image


def test_the_dockerfile_is_multi_stage_and_runs_as_a_user():
    lines = [
        line.strip()
        for line in (DEPLOY / "Dockerfile").read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    stages = [line for line in lines if line.startswith("FROM ")]
    assert len(stages) >= 2 and " AS build" in stages[0]
    final = lines[lines.index(stages[-1]) :]
    assert any(line.startswith("COPY --from=build ") for line in final)
    users = [line.split()[1] for line in final if line.startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert any(line.startswith("ENTRYPOINT ") for line in final) and any(
        line.startswith("HEALTHCHECK ") for line in final
    )
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


def test_the_image_holds_the_rules_pages_where_the_service_looks_for_them():
    """The image installs the packages only; the rules pages' Markdown is copied beside them and
    TALON_RULES_DIR points there (service/routes/rules.py)."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text())  # continuation lines joined
    final = text[text.rindex("\nFROM ") :]
    copies = dict(line.split()[-2:] for line in final.splitlines() if line.startswith("COPY docs/rules "))
    env = dict(
        item.split("=", 1) for line in final.splitlines() if line.startswith("ENV ") for item in line.split()[1:]
    )
    assert env.get("TALON_RULES_DIR") and copies.get("docs/rules") == env["TALON_RULES_DIR"]


def test_the_image_answers_the_probes_on_the_port_the_manifests_probe():
    """The image's TALON_HEALTH_BIND (service/health.py) is port 8001, which it exposes, its HEALTHCHECK
    asks, and the Kubernetes probes use (check_talon_workloads)."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text())
    final = text[text.rindex("\nFROM ") :]
    env = dict(
        item.split("=", 1) for line in final.splitlines() if line.startswith("ENV ") for item in line.split()[1:]
    )
    assert env["TALON_HEALTH_BIND"] == "0.0.0.0:8001"
    exposed = {port for line in final.splitlines() if line.startswith("EXPOSE ") for port in line.split()[1:]}
    assert {"8000", "8001"} <= exposed
    (check,) = [line for line in final.splitlines() if line.startswith("HEALTHCHECK ")]
    assert "TALON_HEALTH_BIND" in check and "/livez" in check


def test_the_entrypoint_runs_any_other_command(tmp_path):
    done = subprocess.run([str(DEPLOY / "docker-entrypoint.sh"), "echo", "hello"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "hello\n"
