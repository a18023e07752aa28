"""deploy/kubernetes, offline: every overlay rendered (kubectl's kustomize), every object valid for each Kubernetes
version we support (kubernetes-validate's schemas, strict: an unknown field is an error; the HTTPRoute by the Gateway
API's own schemas, tests/gateway_api.mjs), a security scan (checkov, in its own virtual environment: .ci/run), and
the manifests agreeing with the compose stack, the nginx template and the Dockerfile on ports, paths, probes,
cookies, timeouts and settings. No cluster runs here (docs/deploy.md); the compose stack is the cluster's stand-in."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.browser import ROOT

KUBE = ROOT / "deploy" / "kubernetes"
OVERLAYS = ("ingress-nginx", "gateway")
VERSIONS = tuple(f"1.{minor}.0" for minor in range(30, 38))  # the Kubernetes versions we support: 1.30 to 1.37
CHECKOV = "/opt/mha-checkov/bin/checkov"  # .ci/run installs it there (its dependencies clash with requirements.lock)
# checkov's checks we do not follow, and why (docs/deploy.md says the same to the cluster's operators)
CHECKOV_SKIPS = {
    "CKV_K8S_43": "images by digest: the operator names their registry's digest (kustomize edit set image ...@sha256)",
    "CKV_K8S_35": "secrets as environment variables: Streamlit reads its cookie secret, the app its Redis URL, and "
                  "kubelet expands Redis's password into its command line only from the environment",
}  # fmt: skip
SECRET, SECRET_KEYS = "mha-explorer-secrets", {"cookie-secret", "redis-password"}
# settings the manifests set that no code reads yet, and the issue that adds the code (remove once it has landed)
COMING: dict[str, str] = {}


def kubectl() -> str:
    path = shutil.which("kubectl")
    if path is None:
        pytest.fail("kubectl is not installed: .ci/run needs one with kustomize v4 or later (kubectl 1.21+)")
    return path


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[dict]]:
    """Each overlay, as `kubectl kustomize` renders it."""
    out = {}
    for overlay in OVERLAYS:
        run = subprocess.run([kubectl(), "kustomize", str(KUBE / "overlays" / overlay)], capture_output=True,
                             text=True, timeout=60)  # fmt: skip
        assert run.returncode == 0, run.stderr
        out[overlay] = [doc for doc in yaml.safe_load_all(run.stdout) if doc]
    return out


def of_kind(docs: list[dict], kind: str) -> list[dict]:
    return [d for d in docs if d["kind"] == kind]


def one(docs: list[dict], kind: str, name: str | None = None) -> dict:
    found = [d for d in of_kind(docs, kind) if name is None or d["metadata"]["name"] == name]
    assert len(found) == 1, (kind, name, [d["metadata"]["name"] for d in found])
    return found[0]


def pod_spec(docs: list[dict], kind: str, name: str) -> dict:
    return one(docs, kind, name)["spec"]["template"]["spec"]


# ---------------------------------------------------------------- valid objects, a clean scan
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_object_is_valid_for_every_supported_kubernetes_version(rendered, overlay):
    import kubernetes_validate

    docs = rendered[overlay]
    assert {d["kind"] for d in docs} >= {"Namespace", "Deployment", "Service", "StatefulSet", "ConfigMap",
                                        "PodDisruptionBudget", "HorizontalPodAutoscaler", "NetworkPolicy"}  # fmt: skip
    problems = []
    for version in VERSIONS:
        for doc in docs:
            if doc["apiVersion"].startswith("gateway.networking.k8s.io/"):
                continue  # not Kubernetes's own: the Gateway API's schemas, below
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.ValidationError as err:
                problems.append(f"{version} {doc['kind']}/{doc['metadata']['name']}: {err.message}")
    assert problems == []


def test_the_httproute_is_valid_by_the_gateway_apis_own_schemas(rendered):
    routes = of_kind(rendered["gateway"], "HTTPRoute")
    assert len(routes) == 1
    assert not of_kind(rendered["gateway"], "Ingress") and not of_kind(rendered["ingress-nginx"], "HTTPRoute")
    node = shutil.which("node")
    assert node, "node is not installed (.ci/run: npm ci installs @kubernetes-models/gateway-api)"
    checker = ROOT / "tests" / "gateway_api.mjs"
    ok = subprocess.run([node, str(checker)], input=json.dumps(routes), capture_output=True, text=True, cwd=ROOT,
                        timeout=60)  # fmt: skip
    assert ok.returncode == 0, ok.stdout + ok.stderr
    typo = json.loads(json.dumps(routes))  # the checker's control: a misspelt field and a wrong value are refused
    typo[0]["spec"]["rules"][-1]["sessionPersistance"] = typo[0]["spec"]["rules"][-1].pop("sessionPersistence")
    typo[0]["spec"]["rules"][0]["matches"][0]["path"]["type"] = "Prefix"
    bad = subprocess.run([node, str(checker)], input=json.dumps(typo), capture_output=True, text=True, cwd=ROOT,
                         timeout=60)  # fmt: skip
    assert bad.returncode == 1
    assert "sessionPersistance" in bad.stdout and "path/type" in bad.stdout, bad.stdout


def test_the_security_scan_passes(rendered, tmp_path):
    """checkov's Kubernetes checks on both overlays, offline (a network namespace without a network, where the
    machine allows one; --skip-download: checkov asks its vendor for nothing)."""
    checkov = os.environ.get("MHA_CHECKOV") or shutil.which("checkov") or CHECKOV
    if not Path(checkov).exists():
        pytest.fail(f"checkov is not installed at {checkov}: .ci/run installs it in its own virtual environment")
    for overlay, docs in rendered.items():
        (tmp_path / f"{overlay}.yaml").write_text(yaml.safe_dump_all(docs), encoding="utf-8")
    cmd = [checkov, "-d", str(tmp_path), "--framework", "kubernetes", "--skip-download", "--compact", "--quiet",
           "--output", "json", "--skip-check", ",".join(CHECKOV_SKIPS)]  # fmt: skip
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--net", "true"], capture_output=True).returncode == 0:
        cmd = [unshare, "--net", *cmd]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    report = json.loads(run.stdout)
    summary = report["summary"] if isinstance(report, dict) else report[0]["summary"]
    failed = [] if isinstance(report, list) or run.returncode == 0 else [
        f"{c['check_id']} {c['resource']}" for c in report["results"]["failed_checks"]]  # fmt: skip
    assert run.returncode == 0 and summary["failed"] == 0, failed or run.stderr[-2000:]
    assert summary["passed"] > 300


# ---------------------------------------------------------------- what a university's IT relies on
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_app_rolls_without_taking_a_ready_pod_away(rendered, overlay):
    docs = rendered[overlay]
    deploy = one(docs, "Deployment", "mha-explorer")
    strategy = deploy["spec"]["strategy"]
    assert strategy["type"] == "RollingUpdate" and strategy["rollingUpdate"]["maxUnavailable"] == 0
    pod = deploy["spec"]["template"]["spec"]
    (app,) = pod["containers"]
    pause = app["lifecycle"]["preStop"]["exec"]["command"]
    assert pause[0] == "sleep"
    assert int(pause[1]) + 10 <= pod["terminationGracePeriodSeconds"], "the grace covers the pause and the stop"
    hpa = one(docs, "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"]["name"] == "mha-explorer"
    assert hpa["spec"]["minReplicas"] == deploy["spec"]["replicas"] >= 2
    assert hpa["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"] >= 600
    labels = deploy["spec"]["template"]["metadata"]["labels"]
    pdb = one(docs, "PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items() and pdb["spec"]["maxUnavailable"] == 1
    assert one(docs, "Service", "mha-explorer")["spec"]["selector"].items() <= labels.items()
    # probes: one endpoint, the start given time, a busy pod not killed
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert app[probe]["httpGet"]["path"] == "/_stcore/health" and app[probe]["httpGet"]["port"] == "http"
    start = app["startupProbe"]
    assert start["periodSeconds"] * start["failureThreshold"] >= 60
    assert app["livenessProbe"]["periodSeconds"] * app["livenessProbe"]["failureThreshold"] >= 60


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_pods_run_as_nobody_in_particular_on_a_read_only_root(rendered, overlay):
    docs = rendered[overlay]
    assert one(docs, "Namespace")["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for kind, name in (("Deployment", "mha-explorer"), ("StatefulSet", "mha-redis")):
        pod = pod_spec(docs, kind, name)
        assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] >= 10000
        assert pod["automountServiceAccountToken"] is False
        for c in pod["containers"]:
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
            assert sc["capabilities"]["drop"] == ["ALL"]
            assert c["resources"]["requests"] and c["resources"]["limits"]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    uid = int(re.search(r"useradd .*--uid (\d+)", dockerfile).group(1))
    assert pod_spec(docs, "Deployment", "mha-explorer")["securityContext"]["runAsUser"] == uid


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_only_the_ingress_reaches_the_app_only_the_app_reaches_redis_and_nothing_goes_out(rendered, overlay):
    docs = rendered[overlay]
    app_labels = one(docs, "Deployment", "mha-explorer")["spec"]["template"]["metadata"]["labels"]
    redis_labels = one(docs, "StatefulSet", "mha-redis")["spec"]["template"]["metadata"]["labels"]
    policies = {p["metadata"]["name"]: p["spec"] for p in of_kind(docs, "NetworkPolicy")}
    deny = policies.pop("default-deny")
    assert deny["podSelector"] == {} and sorted(deny["policyTypes"]) == ["Egress", "Ingress"]
    controller = {"ingress-nginx": "ingress-nginx", "gateway": "envoy-gateway-system"}[overlay]
    for spec in policies.values():
        selected = spec["podSelector"]["matchLabels"]
        for rule in spec.get("ingress", []):
            (peer,) = rule["from"]
            if selected.items() <= app_labels.items():  # the app: from the controller's namespace, on its port
                assert peer == {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": controller}}}
                assert rule["ports"] == [{"port": 8501, "protocol": "TCP"}]
            else:  # Redis: from the app's pods only
                assert selected.items() <= redis_labels.items()
                assert peer["podSelector"]["matchLabels"].items() <= app_labels.items()
        for rule in spec.get("egress", []):  # the app only: Redis, and the cluster's DNS; no address outside
            assert selected.items() <= app_labels.items()
            for peer in rule["to"]:
                assert "ipBlock" not in peer
                assert peer.get("podSelector", {}).get("matchLabels", {}).items() <= redis_labels.items() or \
                    peer["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": "kube-system"}
    assert any(r.get("egress") for r in policies.values())


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_secrets_come_from_one_secret_the_docs_say_how_to_make(rendered, overlay):
    refs = set()
    for kind, name in (("Deployment", "mha-explorer"), ("StatefulSet", "mha-redis")):
        for c in pod_spec(rendered[overlay], kind, name)["containers"]:
            for env in c.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    refs.add((ref["name"], ref["key"]))
                else:
                    assert "SECRET" not in env["name"] and "PASSWORD" not in env["name"], env
    assert refs == {(SECRET, key) for key in SECRET_KEYS}
    assert not of_kind(rendered[overlay], "Secret"), "no secret is in the repository: the operator makes it"
    deploy_md = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    made = re.search(r"kubectl -n mha-explorer create secret generic (\S+)(.*?)\n(?!\s)", deploy_md, re.S)
    assert made and made.group(1) == SECRET, "docs/deploy.md shows the command that makes the Secret"
    assert set(re.findall(r"--from-literal=([a-z-]+)=", made.group(2))) == SECRET_KEYS


# ---------------------------------------------------------------- one topology: compose, nginx, Kubernetes
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def nginx_conf() -> str:
    return (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")


def nginx_directive(name: str) -> str:
    (value,) = set(re.findall(rf"^\s*{name}\s+([^;]+);", nginx_conf(), re.M))
    return value.strip()


def settings(docs: list[dict]) -> dict[str, str]:
    """The environment of the app's container: its ConfigMap's settings and its own env (secrets by name)."""
    pod = pod_spec(docs, "Deployment", "mha-explorer")
    (app,) = pod["containers"]
    out = {}
    for source in app.get("envFrom", []):
        out.update(one(docs, "ConfigMap", source["configMapRef"]["name"])["data"])
    out.update({e["name"]: e.get("value", "<secret>") for e in app["env"]})
    return out


def seconds(nginx_time: str) -> int:
    return int(nginx_time[:-1]) * {"s": 1, "m": 60, "h": 3600}[nginx_time[-1]]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_ports_and_health_agree_with_the_image_and_compose(rendered, overlay):
    docs = rendered[overlay]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    port = int(re.search(r"^EXPOSE (\d+)$", dockerfile, re.M).group(1))
    assert re.search(rf"PORT={port}\b", dockerfile)
    health = re.search(r"urlopen\('http://127\.0\.0\.1:%s(/[^']+)'", dockerfile).group(1)
    (app,) = pod_spec(docs, "Deployment", "mha-explorer")["containers"]
    assert app["ports"] == [{"name": "http", "containerPort": port, "protocol": "TCP"}]
    assert settings(docs)["PORT"] == str(port)
    assert app["readinessProbe"]["httpGet"]["path"] == health == "/_stcore/health"
    upstreams = compose()["services"]["nginx"]["environment"]  # deploy/nginx-conf.sh fills nginx.conf with them
    assert [upstreams[k].rsplit(":", 1)[1] for k in ("SERVER_A", "SERVER_B")] == [str(port)] * 2
    service = one(docs, "Service", "mha-explorer")["spec"]["ports"]
    assert service == [{"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"}]
    policy = one(docs, "NetworkPolicy", "app-from-ingress")["spec"]["ingress"][0]["ports"]
    assert policy == [{"port": port, "protocol": "TCP"}]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_redis_keeps_what_compose_keeps_and_the_app_finds_it(rendered, overlay):
    docs = rendered[overlay]
    compose_redis = compose()["services"]["redis"]["command"]
    (redis,) = pod_spec(docs, "StatefulSet", "mha-redis")["containers"]
    args = redis["args"]

    def flag(words: list[str], name: str) -> str:
        return words[words.index(name) + 1]

    for name in ("--appendonly", "--appendfsync", "--save", "--dir"):
        assert flag(args, name) == flag(compose_redis, name), name
    assert flag(args, "--appendonly") == "yes" and flag(args, "--appendfsync") == "always"
    assert {"mountPath": flag(args, "--dir"), "name": "data"} in redis["volumeMounts"]
    claim = one(docs, "StatefulSet", "mha-redis")["spec"]["volumeClaimTemplates"][0]
    assert claim["metadata"]["name"] == "data" and claim["spec"]["accessModes"] == ["ReadWriteOnce"]
    url, compose_url = settings(docs)["MHA_REDIS_URL"], compose()["x-app"]["environment"]["MHA_REDIS_URL"]
    assert url.startswith("redis://:$(MHA_REDIS_PASSWORD)@mha-redis:") and compose_url.startswith("redis://redis:")
    assert url.rsplit(":", 1)[1] == compose_url.rsplit(":", 1)[1] == "6379/0"
    assert one(docs, "Service", "mha-redis")["spec"]["ports"][0]["port"] == 6379
    assert flag(args, "--requirepass") == "$(REDIS_PASSWORD)"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_settings_agree_with_compose_and_the_code_that_reads_them(rendered, overlay):
    from liveclass import LIMIT_ENV, REDIS_ENV, Limits
    from network import HOSTS_ENV, TRUSTED_ENV

    env = settings(rendered[overlay])
    composed = {k for k in compose()["x-app"]["environment"] if k.startswith("MHA_")}
    assert composed <= env.keys(), "every setting of the compose stack's replicas is set in the cluster too"
    assert {REDIS_ENV, TRUSTED_ENV, HOSTS_ENV} <= env.keys()
    limits = {name: str(getattr(Limits(), field)) for name, field in LIMIT_ENV.items()}
    assert {name: env.get(name) for name in limits} == limits, "every limit is in the settings, at its default"
    folders = ("classroom", "liveclass", "network", "ui", "budget", "explorer")
    code = "\n".join(p.read_text(encoding="utf-8") for d in folders for p in (ROOT / d).rglob("*.py")) + \
        (ROOT / "serve.py").read_text(encoding="utf-8")  # fmt: skip
    for name in (k for k in env if k.startswith("MHA_") and k != "MHA_REDIS_PASSWORD"):
        read = f'"{name}"' in code or name in LIMIT_ENV
        assert read or name in COMING, f"{name} is set but no code reads it"
        if name in COMING:
            assert not read, f"{name} is read now ({COMING[name]} landed): remove it from COMING"
    for part in env[TRUSTED_ENV].split(","):  # network.addresses reads it; in a cluster: networks (the controller pods)
        ipaddress.ip_network(part.strip(), strict=False)
    hosts = {h.strip() for h in env[HOSTS_ENV].split(",")}
    named = [r["host"] for i in of_kind(rendered[overlay], "Ingress") for r in i["spec"]["rules"]] + [
        h for r in of_kind(rendered[overlay], "HTTPRoute") for h in r["spec"]["hostnames"]]  # fmt: skip
    assert named and set(named) <= hosts, "the server accepts every host name the way in is for"
    assert env["STREAMLIT_SERVER_COOKIE_SECRET"] == "<secret>"  # one cookie secret for every replica


def routes(docs: list[dict]) -> list[tuple[str, str, str]]:
    """(match, path, backend Service) of the way in: Ingress paths or HTTPRoute rules."""
    out = []
    for ing in of_kind(docs, "Ingress"):
        for rule in ing["spec"]["rules"]:
            out += [(p["pathType"], p["path"], p["backend"]["service"]["name"]) for p in rule["http"]["paths"]]
    for route in of_kind(docs, "HTTPRoute"):
        for rule in route["spec"]["rules"]:
            (backend,) = rule["backendRefs"]
            out += [({"PathPrefix": "Prefix"}.get(m["path"]["type"], m["path"]["type"]), m["path"]["value"],
                     backend["name"]) for m in rule["matches"]]  # fmt: skip
    return out


def backend_of(docs: list[dict], path: str) -> str:
    """The Service a request for `path` reaches: an exact match first, else the longest prefix."""
    rules = routes(docs)
    exact = [b for kind, p, b in rules if kind == "Exact" and p == path]
    if exact:
        return exact[0]
    prefixes = [(p, b) for kind, p, b in rules if kind == "Prefix" and path.startswith(p)]
    return max(prefixes, key=lambda pb: len(pb[0]))[1]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_way_in_serves_what_nginx_serves_and_closes_what_nginx_closes(rendered, overlay):
    docs = rendered[overlay]
    checked = 0
    locations = re.findall(r'location\s+(=|\^~|~)?\s*"?([^"\s{]+)"?\s*\{(.*?)\n\s*\}', nginx_conf(), re.S)
    for match, path, body in locations:
        if "return 404" in body or "proxy_pass" not in body:
            continue
        sample = "/heads" if match == "~" else path  # the regex location: the app's pages
        want = "mha-explorer-closed" if "deny all" in body else "mha-explorer"
        assert backend_of(docs, sample) == want, (path, body)
        assert backend_of(docs, sample + ("x" if match == "^~" else "")) in ("mha-explorer", "mha-explorer-closed")
        checked += 1
    assert checked >= 8
    assert backend_of(docs, "/_stcore/metrics") == "mha-explorer-closed"
    closed = one(docs, "Service", "mha-explorer-closed")["spec"]
    assert "selector" not in closed, "no pod behind it: the controller answers with an error"
    assert "/_stcore/stream" in nginx_conf() and backend_of(docs, "/_stcore/stream") == "mha-explorer"


def test_sticky_cookie_and_websocket_timeouts_agree_with_nginx(rendered):
    cookie = set(re.findall(r"Set-Cookie \"(\w+)=", nginx_conf()))
    assert cookie == {"mha_route"}
    ingress = one(rendered["ingress-nginx"], "Ingress")["metadata"]["annotations"]
    a = "nginx.ingress.kubernetes.io/"
    assert ingress[a + "affinity"] == "cookie" and ingress[a + "affinity-mode"] == "persistent"
    assert ingress[a + "session-cookie-name"] == "mha_route"
    assert int(ingress[a + "proxy-read-timeout"]) == seconds(nginx_directive("proxy_read_timeout"))
    assert int(ingress[a + "proxy-send-timeout"]) == seconds(nginx_directive("proxy_send_timeout"))
    assert ingress[a + "proxy-body-size"] == nginx_directive("client_max_body_size")
    (route,) = of_kind(rendered["gateway"], "HTTPRoute")
    persistence = [r["sessionPersistence"] for r in route["spec"]["rules"] if "sessionPersistence" in r]
    assert persistence == [{"type": "Cookie", "sessionName": "mha_route", "cookieConfig": {"lifetimeType": "Session"}}]
    app_rule = next(r for r in route["spec"]["rules"] if r["backendRefs"][0]["name"] == "mha-explorer")
    assert "sessionPersistence" in app_rule


def test_the_image_and_redis_names_are_the_repositorys_own_builds():
    """The base names the images this repository builds (Dockerfile, deploy/redis.Dockerfile), as compose does."""
    kustomization = yaml.safe_load((KUBE / "base" / "kustomization.yaml").read_text(encoding="utf-8"))
    names = {i["name"] for i in kustomization["images"]}
    services = compose()["services"]
    assert names == {services["redis"]["image"], "mha-explorer"}
    assert "mha-explorer" in compose()["x-app"]["image"]
