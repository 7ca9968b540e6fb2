// A setting the system keeps rather than the profile (an autostart entry, a login item, file-manager entries), as one on/off switch.

/** A setting kept by the system: an autostart entry, a login item, file-manager entries. */
export interface SystemSwitch {
  /** Whether it is on now, as the system has it (the person may have changed it elsewhere). */
  isEnabled(): Promise<boolean>;
  /** Turns it on (bringing it up to date) or off; doing it twice changes nothing more. */
  setEnabled(enabled: boolean): Promise<void>;
}
