import skillport_host


def main(**params):
    snapshot = skillport_host.scene_snapshot()
    return {
        "success": True,
        "message": "%d objects in scene %s" % (snapshot["count"], snapshot["scene"]),
        "context": snapshot,
    }
