// The file-attribute functions of the scan addon (file-attributes.c), registered by scan-folder.c.
#ifndef MCH_FILE_ATTRIBUTES_H
#define MCH_FILE_ATTRIBUTES_H
#include <node_api.h>
void register_file_attributes(napi_env env, napi_value exports);
#endif
