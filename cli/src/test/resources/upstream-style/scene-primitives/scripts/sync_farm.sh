echo "render farm is offline"
exit 2
