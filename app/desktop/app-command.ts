// The command that starts this desktop app again (for start at login and the file-manager entries), wherever it was installed.

export interface AppCommandInputs {
  /** `process.execPath`: the app's executable, or Electron's in development. */
  execPath: string;
  /** Electron's `app.isPackaged`. */
  isPackaged: boolean;
  /** Electron's `app.getAppPath()`: the folder or asar Electron was started with, needed in development. */
  appPath: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The words before the app's own options. An AppImage runs from a mount that changes every start:
 * `$APPIMAGE` names the file itself. In development Electron needs the app's folder after it.
 */
export function appCommand(inputs: AppCommandInputs): string[] {
  const appImage = inputs.env['APPIMAGE'];
  if (inputs.isPackaged && appImage !== undefined && appImage !== '') return [appImage];
  return inputs.isPackaged ? [inputs.execPath] : [inputs.execPath, inputs.appPath];
}
