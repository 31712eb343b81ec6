@echo off
REM Batch action script example.
echo {"success": true, "message": "Executed Batch action"}
