from dcc_mcp_core import run_main, skill_success


def main(**kwargs):
    return skill_success("Baked 24 frames", frames=24)


if __name__ == "__main__":
    run_main(main)
