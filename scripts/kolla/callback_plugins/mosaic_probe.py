# Mosaic's stdout callback for scripts/kolla/placement.py: ansible-core
# 2.16 has no JSON output of its own (that callback is in a Galaxy
# collection), so this one keeps what the probes report and every failure,
# and prints them as one JSON document when the run ends.

import json

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: mosaic_probe
    type: stdout
    short_description: the probes' results and every failure, as JSON
    description: Written for Mosaic's kolla-ansible placement proof.
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "mosaic_probe"

    def __init__(self):
        super().__init__()
        self.probes = []
        self.failures = []
        self.play = ""

    def v2_playbook_on_play_start(self, play):
        self.play = play.get_name()

    def v2_runner_on_ok(self, result):
        msg = result._result.get("msg")
        if isinstance(msg, dict) and msg.get("mosaic_probe"):
            self.probes.append({"host": result._host.get_name(), "role": msg["role"],
                                "placed": msg["placed"]})

    def _failed(self, result, what):
        self.failures.append({
            "play": self.play,
            "task": result._task.get_name(),
            "host": result._host.get_name(),
            "what": what,
            "msg": str(result._result.get("msg", result._result)),
        })

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._failed(result, "failed")

    def v2_runner_on_unreachable(self, result):
        self._failed(result, "unreachable")

    def v2_playbook_on_stats(self, stats):
        self._display.display(json.dumps({"probes": self.probes, "failures": self.failures}))
