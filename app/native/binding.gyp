{
  "targets": [
    {
      "target_name": "mch_scan",
      "sources": ["scan-folder.c", "file-attributes.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "xcode_settings": { "OTHER_CFLAGS": ["-O2", "-Wall", "-Wextra"] }
    }
  ]
}
