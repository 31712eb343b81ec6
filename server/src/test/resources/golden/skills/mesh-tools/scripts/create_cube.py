from dcc_mcp_core.skill import skill_entry, skill_success, run_main


@skill_entry
def main(size=1.0, name="cube", **kwargs):
    return skill_success("Created " + name, size=size)


if __name__ == "__main__":
    run_main(main)
