def main(name, kind="cube", **params):
    scene = HOST.setdefault("scene", [])
    scene.append({"name": name, "kind": kind})
    return {"added": name, "count": len(scene)}
