{
  "targets": [
    {
      "target_name": "mch_scan",
      "sources": ["scan-folder.c", "file-attributes.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "xcode_settings": { "OTHER_CFLAGS": ["-O2", "-Wall", "-Wextra"] }
    }
  ],
  "conditions": [
    [
      "OS==\"linux\"",
      {
        "targets": [
          {
            "target_name": "mch_fuse",
            "sources": [
              "fuse-addon.c",
              "fuse-caller.c",
              "fuse-files.c",
              "fuse-free.c",
              "fuse-hydration.c",
              "fuse-passthrough.c"
            ],
            "cflags": ["-O2", "-Wall", "-Wextra", "-pthread", "-D_FILE_OFFSET_BITS=64", "-fvisibility=hidden"],
            "ldflags": ["-pthread"],
            "libraries": ["-ldl"]
          }
        ]
      }
    ]
  ]
}
