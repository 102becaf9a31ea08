# Commands that sdm loads into gdb when gdb has Python: a value in one command. Each prints one
# line, an MI result record (^done,...) that sdm parses as it parses gdb's own; errors are gdb's.
# They are CLI commands, run through -interpreter-exec: a Python MI command (gdb.MICommand) makes
# gdb 13 abort with SIGABRT, and may dump core, when an internal error ends it.
#
#   sdm-value DEPTH MAX EXPR   the value as `print` shows it and as a variable object shows it,
#                              its type, its size in bytes and the number of children a variable
#                              object would have; for a C struct, union or array also its
#                              children, DEPTH levels down and at most MAX per level, named, typed
#                              and shown as a variable object's children are. children="varobj"
#                              when gdb's variable objects must list them (C++ classes, whose
#                              access groups Python cannot see).
#   sdm-type EXPR              the type of EXPR as `whatis` names it.
#
# And for several ranks of this gdb at once (its programs), each distinct answer once with the
# positions (from 0, in the order asked) of the ranks that gave it:
#
#   sdm-frames ID T,T,...      the frames of each of gdb's threads T (global numbers), as
#                              -stack-list-frames describes them, without their addresses.
#   sdm-values ID DEPTH MAX T.F,T.F,... EXPR
#                              sdm-value DEPTH MAX EXPR in frame F of each thread T.
#
# They print nothing: the answer, ^done,id="ID",answers=[{members="0,2",stack=[...]|value={...}|
# error="..."},...],alone="1,3", is the value of the parameter sdm-answer, which `-gdb-show
# sdm-answer` writes in one piece (what a command prints, gdb 13 writes to MI a byte at a time).
# error is gdb's message, as the rank's own command would have failed with it; alone are the ranks
# to ask on their own (a thread that is not stopped or not there, a frame not there, a C++ value
# whose children only variable objects list, any other failure), so that each answers as it would
# have alone. They leave no thread selected (see _select_nothing).
import re

import gdb


def _strip(t):
    return t.strip_typedefs()


def _is_pointer_to_nothing(target):
    return target.code in (gdb.TYPE_CODE_FUNC, gdb.TYPE_CODE_VOID)


def _count(t):
    """The number of children gdb's C variable objects give a value of type t."""
    s = _strip(t)
    if s.code == gdb.TYPE_CODE_ARRAY:
        low, high = s.range()
        return max(0, high - low + 1) if s.sizeof > 0 else 0
    if s.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        return len(s.fields())
    if s.code == gdb.TYPE_CODE_PTR:
        target = _strip(s.target())
        if target.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            return len(target.fields())
        return 0 if _is_pointer_to_nothing(target) else 1
    return 0


def _shown(value):
    """A child's value as a variable object shows it."""
    s = _strip(value.type)
    if s.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        return "{...}"
    if s.code == gdb.TYPE_CODE_ARRAY:
        return "[%d]" % _count(value.type)
    try:
        return value.format_string()
    except gdb.error:
        return ""


def _field_name(field):
    if field.name:
        return field.name
    if _strip(field.type).code == gdb.TYPE_CODE_STRUCT:
        return "<anonymous struct>"
    return "<anonymous union>"


def _parts(value, name, most):
    """A value's children as a variable object names them, with their values."""
    s = _strip(value.type)
    if s.code == gdb.TYPE_CODE_ARRAY:
        low, _ = s.range()
        return [(str(low + i), value[low + i]) for i in range(min(_count(value.type), most))]
    if s.code == gdb.TYPE_CODE_PTR:
        target = value.dereference()
        if _strip(target.type).code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            return [("*" + name, target)]
        value = target
    return [(_field_name(f), value[f]) for f in _strip(value.type).fields()[:most]]


def _children(value, name, depth, most):
    out = []
    for exp, child in _parts(value, name, most):
        item = {
            "exp": exp,
            "type": str(child.type),
            "value": _shown(child),
            "numchild": str(_count(child.type)),
        }
        if depth > 1 and _has_children(child):
            item["children"] = _children(child, exp, depth - 1, most)
        out.append(item)
    return out


def _has_children(value):
    """Whether sdm shows the value's children: those of a struct, union or array, and those of a
    pointer that a typedef hides, since sdm tells a struct by its children when a typedef hides
    its type."""
    s = _strip(value.type)
    if s.code == gdb.TYPE_CODE_PTR and value.type.code != gdb.TYPE_CODE_TYPEDEF:
        return False
    return _count(value.type) > 0 and s.code in (
        gdb.TYPE_CODE_STRUCT,
        gdb.TYPE_CODE_UNION,
        gdb.TYPE_CODE_ARRAY,
        gdb.TYPE_CODE_PTR,
    )


def _in_cplus():
    try:
        return gdb.current_language() != "c"
    except AttributeError:
        return gdb.parameter("language") not in ("c", "auto; currently c")


def _mi(value):
    """A Python string, list or dict written as an MI value."""
    if isinstance(value, dict):
        return "{" + ",".join(k + "=" + _mi(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_mi(v) for v in value) + "]"
    return '"' + _ESCAPED.sub(_escape, value) + '"'


_ESCAPED = re.compile(r'[\x00-\x1f\x7f"\\]')


def _escape(match):
    c = match.group()
    return "\\" + c if c in '"\\' else "\\%03o" % ord(c)


def _done(results):
    print("^done," + ",".join(k + "=" + _mi(v) for k, v in results.items()))


def _as_gdb_says(command):
    """gdb's own message for an error, as print gives it, without Python's preamble."""

    def invoke(self, arg, from_tty):
        try:
            _done(command(self, arg))
        except gdb.error as e:
            raise gdb.GdbError(str(e))

    return invoke


class SdmValue(gdb.Command):
    def __init__(self):
        super().__init__("sdm-value", gdb.COMMAND_DATA)

    @_as_gdb_says
    def invoke(self, arg):
        words = arg.split(None, 2)
        if len(words) != 3:
            raise gdb.GdbError("usage: sdm-value DEPTH MAX EXPR")
        return _value(int(words[0]), int(words[1]), words[2])


def _value(depth, most, expression):
    """What sdm-value prints of EXPR in the selected frame."""
    value = gdb.parse_and_eval(expression)
    text = value.format_string()
    try:
        size = value.type.sizeof
    except gdb.error:
        size = 0
    composite = _strip(value.type).code in (
        gdb.TYPE_CODE_STRUCT,
        gdb.TYPE_CODE_UNION,
        gdb.TYPE_CODE_ARRAY,
    )
    result = {
        "type": str(value.type),
        "size": str(size),
        "value": text,
        # What _shown gives, without printing the value again when it is the text.
        "shown": _shown(value) if composite else text,
        "numchild": str(_count(value.type)),
    }
    if _has_children(value):
        if _in_cplus():
            result["children"] = "varobj"
        else:
            result["children"] = _children(value, expression, depth, most)
    return result


class SdmType(gdb.Command):
    def __init__(self):
        super().__init__("sdm-type", gdb.COMMAND_DATA)

    @_as_gdb_says
    def invoke(self, arg):
        if not arg.strip():
            raise gdb.GdbError("usage: sdm-type EXPR")
        return {"type": str(gdb.parse_and_eval(arg).type)}


class _Answers:
    """Answers of several ranks, each distinct one (its MI text) once with the ranks that gave it."""

    def __init__(self):
        self.members = {}
        self.alone = []

    def add(self, position, text):
        self.members.setdefault(text, []).append(str(position))

    def mi(self, ident):
        answers = ",".join(
            '{members="%s",%s}' % (",".join(m), text) for text, m in self.members.items()
        )
        return '^done,id=%s,answers=[%s],alone="%s"' % (
            _mi(ident),
            answers,
            ",".join(map(str, self.alone)),
        )


class _Answer(gdb.Parameter):
    """The last answer of sdm-frames or sdm-values."""

    set_doc = "Set the last answer of sdm-frames or sdm-values."
    show_doc = "Show the last answer of sdm-frames or sdm-values."

    def __init__(self):
        super().__init__("sdm-answer", gdb.COMMAND_DATA, gdb.PARAM_STRING_NOESCAPE)
        self.value = ""


_ANSWER = _Answer()


def _stopped_threads():
    """gdb's threads that are stopped, by global number."""
    found = {}
    for inferior in gdb.inferiors():
        for thread in inferior.threads():
            if thread.is_valid() and thread.is_stopped():
                found[thread.global_num] = thread
    return found


def _in_turn(invoke):
    """Runs invoke(answers, threads, arg) for the arguments after the ID, then selects no thread
    (_select_nothing); the answer goes into sdm-answer."""

    def run(self, arg, from_tty):
        _ANSWER.value = ""
        ident, _, rest = arg.partition(" ")
        before = gdb.selected_thread()
        answers = _Answers()
        try:
            invoke(self, answers, _stopped_threads(), rest)
        finally:
            _select_nothing(before)
        _ANSWER.value = answers.mi(ident)

    return run


def _select_nothing(before):
    """Selects the inferior without a program that sdm keeps in a gdb of several ranks, so that no
    thread is selected: after every MI command gdb 13 looks at the selected thread's last stop
    (bpstat_do_actions, for $_hit_locno), and warns, a byte at a time, "location number not found"
    when the stop's breakpoint has been set again since (as reading a rank's library symbols at its
    stop does). Without such an inferior, the thread selected before is selected again."""
    for inferior in gdb.inferiors():
        if inferior.pid == 0 and not inferior.threads() and inferior.progspace.filename is None:
            gdb.execute("inferior %d" % inferior.num, to_string=True)
            return
    if before is not None and before.is_valid():
        before.switch()


_SPECIAL_FRAMES = {
    gdb.DUMMY_FRAME: "<function called from gdb>",
    gdb.SIGTRAMP_FRAME: "<signal handler called>",
    gdb.ARCH_FRAME: "<cross-architecture call>",
}

_CALLERS = (gdb.NORMAL_FRAME, gdb.TAILCALL_FRAME)


def _stack(known):
    """The selected thread's frames as -stack-list-frames describes them (print_frame in gdb's
    stack.c), without their addresses: level, func, and file and line where the frame has a source
    position, else the library its code is in. known: the descriptions made so far in this command,
    by where the frame's code is (the program's file, the library's, the address in them and the
    kind of frame), which the frames of other ranks stopped at the same place share (each rank is a
    program space of its own); never for an inlined frame or the caller of one, which share their pc
    with another frame."""
    frames = []
    frame = gdb.newest_frame()
    program = gdb.current_progspace().filename
    newer = None  # the type of the nearest newer frame that is not inlined
    inlined = False  # whether the frame just newer is inlined
    level = 0
    while frame is not None:
        kind = frame.type()
        # gdb's get_frame_address_in_block: a caller's pc is its return address.
        caller = newer in _CALLERS and kind in _CALLERS + (gdb.INLINE_FRAME,)
        address = frame.pc() - 1 if caller else frame.pc()
        library = gdb.solib_name(address)
        key = None
        if not inlined and kind != gdb.INLINE_FRAME:
            key = (program, library, address, caller, kind)
        text = known.get(key) if key is not None else None
        if text is None:
            text = _frame(frame, kind, library)
            if key is not None:
                known[key] = text
        frames.append('frame={level="%d",%s}' % (level, text))
        inlined = kind == gdb.INLINE_FRAME
        if not inlined:
            newer = kind
        frame = frame.older()
        level += 1
    return "[" + ",".join(frames) + "]"


def _frame(frame, kind, library):
    """A frame's fields after its level, as MI writes them; library: the one its code is in."""
    special = _SPECIAL_FRAMES.get(kind)
    if special is not None:
        return "func=" + _mi(special)
    name = frame.name()
    fields = ["func=" + _mi(name if name is not None else "??")]
    sal = frame.find_sal()
    if sal.symtab is not None:
        fields.append("file=" + _mi(sal.symtab.filename))
        fields.append('line="%d"' % sal.line)
    if (name is None or sal.symtab is None) and library:
        fields.append("from=" + _mi(library))
    return ",".join(fields)


class SdmFrames(gdb.Command):
    def __init__(self):
        super().__init__("sdm-frames", gdb.COMMAND_STACK)

    @_in_turn
    def invoke(self, answers, threads, arg):
        known = {}
        for position, word in enumerate(arg.split(",")):
            thread = threads.get(int(word))
            try:
                if thread is None:
                    raise LookupError(word)
                thread.switch()
                answers.add(position, "stack=" + _stack(known))
            except Exception:
                answers.alone.append(position)


class SdmValues(gdb.Command):
    def __init__(self):
        super().__init__("sdm-values", gdb.COMMAND_DATA)

    @_in_turn
    def invoke(self, answers, threads, arg):
        words = arg.split(None, 3)
        depth, most, expression = int(words[0]), int(words[1]), words[3]
        for position, word in enumerate(words[2].split(",")):
            number, level = word.split(".")
            thread = threads.get(int(number))
            try:
                if thread is None:
                    raise LookupError(word)
                thread.switch()
                frame = gdb.newest_frame()
                for _ in range(int(level)):
                    frame = frame.older()
                frame.select()
            except Exception:
                answers.alone.append(position)
                continue
            try:
                result = _value(depth, most, expression)
            except gdb.error as e:
                answers.add(position, "error=" + _mi(str(e)))
                continue
            except Exception:
                answers.alone.append(position)
                continue
            if result.get("children") == "varobj":
                answers.alone.append(position)
            else:
                answers.add(position, "value=" + _mi(result))


SdmValue()
SdmType()
SdmFrames()
SdmValues()
