from _scene import apply_transform, describe, failure, find_object, success


def main(name, location=None, rotation_degrees=None, scale=None, **params):
    if location is None and rotation_degrees is None and scale is None:
        return failure("give at least one of location, rotation_degrees and scale")
    obj = find_object(name)
    apply_transform(obj, location=location, rotation_degrees=rotation_degrees, scale=scale)
    return success("transformed %s" % obj.name, object=describe(obj))
