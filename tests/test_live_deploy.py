"""docker-compose.yml's structure, without an engine (tests/test_compose.py runs it for real): two app replicas
built from this Dockerfile sharing Redis through MHA_REDIS_URL, and nginx filled from deploy/nginx.conf with
every replica in it; Redis and nginx built from Debian's packages, not pulled."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def test_two_app_replicas_share_redis():
    services = compose()["services"]
    apps = [name for name, s in services.items() if s.get("build") == "."]
    assert len(apps) == 2
    for name in apps:
        url = services[name]["environment"]["MHA_REDIS_URL"]
        host = re.match(r"redis://([^:/]+):6379/\d+$", url).group(1)
        assert host in services and "redis-server" in services[host]["command"]


def test_nginx_gets_deploy_nginx_conf_with_every_placeholder_filled():
    """nginx fills the template with deploy/nginx-conf.sh from its environment (tests/browser.py runs the same script):
    every placeholder filled, one upstream per replica; the replicas trust nginx by its name on the compose network
    and never a header a client wrote; both get the optional MHA_ALLOWED_HOSTS."""
    from tests.browser import nginx_conf

    services = compose()["services"]
    nginx = services["nginx"]
    mounted = {v.split(":")[0]: v.split(":")[1] for v in nginx["volumes"]}
    assert {"./deploy/nginx.conf", "./deploy/nginx-conf.sh"} <= set(mounted)
    script = nginx["command"][-1]
    assert mounted["./deploy/nginx-conf.sh"] in script and shlex.split(script)[-3:] == ["nginx", "-g", "daemon off;"]
    env = nginx["environment"]
    conf = nginx_conf(env["LISTEN"], [env["SERVER_A"], env["SERVER_B"]], env["RUN"])
    assert "__" not in re.sub(r"#.*", "", conf)
    upstream = re.findall(r"^\s*server ([\w.-]+:\d+)[ ;]", conf, flags=re.M)  # the replicas (doors are sockets)
    apps = {name for name, s in services.items() if s.get("build") == "."}
    assert set(upstream) == {f"{name}:8501" for name in apps}
    assert "default 1;" in conf  # no list: any host
    for name in apps:
        assert services[name]["environment"]["MHA_TRUSTED_PROXIES"] == "nginx"  # the service nginx runs as
        assert services[name]["environment"]["MHA_ALLOWED_HOSTS"] == env["MHA_ALLOWED_HOSTS"]
    listed = nginx_conf("80", ["a:1", "b:2"], "/run", "Classroom.LAN, 10.1.2.3,fd00::5, x;y, $(id), *")
    allowed = re.findall(r'^\s*"([^"]+)" 1;$', listed, flags=re.M)
    assert allowed == ["[::1]", "classroom.lan", "10.1.2.3", "[fd00::5]"] and "default 0;" in listed


def test_redis_and_nginx_are_built_from_debian_packages_not_pulled():
    services = compose()["services"]
    for name, package in (("redis", "redis-server"), ("nginx", "nginx")):
        build = services[name]["build"]
        dockerfile = ROOT / build["context"] / build["dockerfile"]
        text = dockerfile.read_text(encoding="utf-8")
        assert f"apt-get install -y --no-install-recommends {package}" in text
        assert re.search(r"^FROM \$\{BASE_IMAGE\}$", text, flags=re.M)
        assert build["args"]["BASE_IMAGE"].startswith("${MHA_BASE_IMAGE:-debian:")
    # Redis reachable from the replicas without a password, so never published on the host
    assert "ports" not in services["redis"] and "--protected-mode" in services["redis"]["command"]



def test_redis_keeps_rooms_and_answers_on_a_volume_written_before_it_answers():
    """tests/test_compose.py kills Redis mid-question and finds every answer; this is the configuration it needs."""
    services = compose()
    redis = services["services"]["redis"]
    command = redis["command"]
    flag = {command[i]: command[i + 1] for i in range(len(command) - 1) if command[i].startswith("--")}
    assert flag["--appendonly"] == "yes" and flag["--appendfsync"] == "always" and flag["--dir"] == "/data"
    volume = next(v for v in redis["volumes"] if v.endswith(":/data"))
    assert volume.split(":")[0] in services["volumes"]  # a named volume: it outlives the container
