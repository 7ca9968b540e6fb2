// The python extension's actions by state: which menu entries a selection gets from its answers, and each carried out by the client that syncs it.
import { STATE_ENTRIES } from '../entry-description.ts';

/**
 * Python source: `state_items(paths, prefix)` gives the entries for a selection when a running client
 * answered for every item (asked anew, one `state` request per client, at most ANSWER_TIMEOUT), none
 * otherwise. An entry sends `act` on a connection of its own, in a thread: the service answers one
 * connection's requests in turn, so an action that takes a while never holds up the emblems, and the
 * file manager never waits. An error answer is shown with notify-send where there is one, else on
 * stderr (the file manager's log).
 */
export function pythonStateMenu(): string {
  const rows = STATE_ENTRIES.map(
    ({ action, label, tip }) => `    "${action}": (${JSON.stringify(label)}, ${JSON.stringify(tip)}),\n`,
  );
  return `
STATE_ACTIONS = {
${rows.join('')}}
${BODY}`;
}

const BODY = String.raw`# How long an action's thread waits for its answer (pinning a large folder answers once it is queued).
ACT_TIMEOUT = 300.0


def state_actions(answers):
    """The entries every selected item allows, in menu order."""
    states = [answer.get("state") for answer in answers]
    if not answers or any(state in (None, "outside") for state in states):
        return []
    actions = []
    if all(answer.get("onDemand") is True for answer in answers):
        if all(state in ("online-only", "up-to-date") for state in states):
            actions.append("pin")
        if all(state in ("kept", "up-to-date") for state in states):
            actions.append("free")
    if all(answer.get("kind") == "folder" for answer in answers):
        if all(state == "excluded" for state in states):
            actions.append("include")
        elif all(
            state != "excluded" and answer.get("onDemand") is not True and answer.get("path") != answer.get("folder")
            for answer, state in zip(answers, states)
        ):
            actions.append("exclude")
    if len(answers) == 1:
        if states[0] in ("not-synced", "conflict"):
            actions.append("why")
        actions.append("show")
    return actions


def tell_user(message):
    program = shutil.which("notify-send")
    if program is None:
        print("mch-sync: " + message, file=sys.stderr)
    else:
        start([program, "--app-name=mch-sync", "--icon=dialog-warning", "mch-sync", message])


def act(socket_path, action, paths):
    """In a thread: the action asked of the client on a connection of its own; an error told to the user."""
    message = None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(ACT_TIMEOUT)
            connection.connect(socket_path)
            connection.sendall(encode_line({"id": 1, "op": "act", "action": action, "paths": paths}))
            for line in connection.makefile("rb"):
                candidate = json.loads(line.decode("utf-8"))
                if isinstance(candidate, dict) and candidate.get("id") == 1:
                    message = candidate
                    break
    except (OSError, ValueError) as error:
        message = {"type": "error", "message": "mch-sync did not answer (%s)." % error}
    if not isinstance(message, dict):
        tell_user("mch-sync stopped before it answered.")
    elif message.get("type") != "done":
        tell_user(str(message.get("message") or "mch-sync could not do that."))


def run_act(action, groups):
    for socket_path, paths in groups.items():
        threading.Thread(target=act, args=(socket_path, action, paths), daemon=True).start()


def state_items(paths, prefix):
    services.start()
    answers = services.ask_states(paths)
    if answers is None:
        return []
    groups = collections.OrderedDict()
    for connection, answer in answers:
        groups.setdefault(connection.path, []).append(answer.get("path"))
    items = []
    for action in state_actions([answer for _connection, answer in answers]):
        label, tip = STATE_ACTIONS[action]
        item = FileManager.MenuItem(name=prefix + action, label=label, tip=tip)
        item.connect("activate", lambda _item, action=action: run_act(action, groups))
        items.append(item)
    return items
`;
