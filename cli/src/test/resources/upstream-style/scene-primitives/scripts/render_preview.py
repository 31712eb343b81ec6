from dcc_mcp_core import audio_content, image_content, run_main, skill_success

# A short WAV header: enough for a client to carry it as audio.
BEEP = b"RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00D\xac\x00\x00\x88X\x01\x00\x02\x00\x10\x00data\x00\x00\x00\x00"


def main(**kwargs):
    return skill_success(
        "Rendered a preview",
        content=[
            image_content(path="assets/preview.png"),
            audio_content(data=BEEP, mime_type="audio/wav"),
        ],
        frame=1,
    )


if __name__ == "__main__":
    run_main(main)
