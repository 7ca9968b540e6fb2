; Explorer's "Copy share link" for files and folders: per-user verbs written at install, removed at uninstall.
;
; electron-builder includes this file in its NSIS script (electron-builder.yml: nsis.include) and calls the
; customInstall and customUnInstall macros; it defines APP_EXECUTABLE_FILENAME. The installer is per user
; (perMachine: false), so the verbs go to HKCU\Software\Classes, which needs no elevation and is merged into
; HKEY_CLASSES_ROOT for this user only. "*" is every file, "Directory" every folder.
; Explorer starts one process per selected item with "%1"; the app joins them (app/desktop/launch-args.ts).

!define MCH_SHARE_VERB "MchSync.CopyShareLink"

!macro mchWriteShareVerb CLASS
  WriteRegStr HKCU "Software\Classes\${CLASS}\shell\${MCH_SHARE_VERB}" "MUIVerb" "Copy share link"
  WriteRegStr HKCU "Software\Classes\${CLASS}\shell\${MCH_SHARE_VERB}" "Icon" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}",0'
  ; The default "Document" model hides the verb when more than 15 items are selected.
  WriteRegStr HKCU "Software\Classes\${CLASS}\shell\${MCH_SHARE_VERB}" "MultiSelectModel" "Player"
  WriteRegStr HKCU "Software\Classes\${CLASS}\shell\${MCH_SHARE_VERB}\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" --share "%1"'
!macroend

!macro customInstall
  !insertmacro mchWriteShareVerb "*"
  !insertmacro mchWriteShareVerb "Directory"
  ; SHCNE_ASSOCCHANGED: Explorer rereads the verbs without a sign-out.
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend

!macro customUnInstall
  DeleteRegKey HKCU "Software\Classes\*\shell\${MCH_SHARE_VERB}"
  DeleteRegKey HKCU "Software\Classes\Directory\shell\${MCH_SHARE_VERB}"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend
