// The python extension's emblems: the InfoProvider that draws each item's sync state from the cached answers of the state service.
import { STATE_EMBLEMS } from '../emblem-icons.ts';

/** `EMBLEMS = {...}`: the emblem (after EMBLEM_PREFIX) of each state, from the one table in emblem-icons.ts. */
export function pythonEmblemTable(): string {
  const rows = Object.entries(STATE_EMBLEMS).map(([state, emblem]) => `    "${state}": "${emblem}",\n`);
  return `EMBLEMS = {\n${rows.join('')}}\n`;
}

/**
 * Python source of the provider class (its name gets the profile's suffix). `update_file_info` answers
 * from the folder's cache: the first item of a folder asks the service for the whole folder (waiting
 * at most ANSWER_TIMEOUT), the others find their answer there. Items inside a synced folder are
 * remembered even while no client runs, so a client that starts later invalidates them and they get
 * their emblems without the file manager being restarted.
 */
export function pythonInfoProvider(className: string): string {
  return String.raw`
def add_emblems(info, state):
    emblem = EMBLEMS.get(state.get("state")) if isinstance(state, dict) else None
    if emblem is None:
        return
    info.add_emblem(EMBLEM_PREFIX + emblem)
    if state.get("shared") is True:
        info.add_emblem(EMBLEM_PREFIX + "shared")


class ${className}(GObject.GObject, FileManager.InfoProvider):
    def update_file_info(self, info):
        complete = FileManager.OperationResult.COMPLETE
        path = local_path(info)
        if path is None or not os.path.isabs(path):
            return complete
        services.start()
        connection, named = services.serving(path)
        if connection is None:
            # No link resolved here: this runs for every item shown, and is only a memo for later.
            if any(parts_below(root, path) is not None for root in services.synced_roots()):
                services.remember(path, info)
            return complete
        services.remember(named, info)
        add_emblems(info, services.state_of(path))
        return complete
`;
}
