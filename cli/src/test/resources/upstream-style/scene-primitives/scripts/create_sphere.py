from dcc_mcp_core.skill import skill_entry, skill_success, run_main


@skill_entry
def main(radius=1.0, name="sphere", **kwargs):
    if radius <= 0:
        raise ValueError("radius must be positive")
    return skill_success("Created " + name, prompt="Call set_material next.", name=name, radius=radius)


if __name__ == "__main__":
    run_main(main)
