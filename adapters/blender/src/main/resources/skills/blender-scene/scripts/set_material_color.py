import bpy

from _scene import describe, failure, find_object, success


def _rgba(color):
    if isinstance(color, str):
        text = color.lstrip("#")
        if len(text) != 6:
            raise ValueError("a colour string must look like #RRGGBB, not %r" % color)
        srgb = [int(text[i : i + 2], 16) / 255.0 for i in (0, 2, 4)]
        # Blender's colour values are linear; #RRGGBB is sRGB.
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
        return linear + [1.0]
    values = [float(c) for c in color]
    return values + [1.0] if len(values) == 3 else values


def main(name, color, material=None, roughness=None, metallic=None, **params):
    obj = find_object(name)
    if obj.type not in ("MESH", "CURVE", "SURFACE", "META", "FONT"):
        return failure("%s is a %s and cannot have a material" % (obj.name, obj.type.lower()))
    rgba = _rgba(color)
    mat = bpy.data.materials.get(material or obj.name + "-material")
    if mat is None:
        mat = bpy.data.materials.new(material or obj.name + "-material")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes.get("Principled BSDF")
    bsdf.inputs["Base Color"].default_value = rgba
    if roughness is not None:
        bsdf.inputs["Roughness"].default_value = float(roughness)
    if metallic is not None:
        bsdf.inputs["Metallic"].default_value = float(metallic)
    mat.diffuse_color = rgba
    if obj.data.materials:
        obj.data.materials[0] = mat
    else:
        obj.data.materials.append(mat)
    return success("%s now uses %s" % (obj.name, mat.name), object=describe(obj))
