#!/usr/bin/env python3
"""Writes Fixtures/legacy/*: small hand-curated legacy exports with every quirk of DOMAIN.md §1.

Deterministic (fixed seed, no clock): running it again gives byte-identical files. The expected
outcome of each file is listed in Fixtures/README.md; edit both together.
Usage: python3 Fixtures/tools/make_legacy_fixtures.py   (from the package root)
"""
import base64, io, json, os, random, struct, zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "legacy")
rng = random.Random(20240601)


def png(side, noisy):
    """A valid RGB PNG; noisy images barely compress (for the ~20 KB thumbnail)."""
    a, b = [rng.randrange(256) for _ in range(3)], [rng.randrange(256) for _ in range(3)]
    raw = bytearray()
    for y in range(side):
        raw.append(0)
        for x in range(side):
            raw += bytes(rng.randrange(256) for _ in range(3)) if noisy else bytes(a if (x // 4 + y // 4) % 2 else b)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def noisy_small():
    return png(10, True)  # a few hundred bytes


T0 = 1388534400  # 2014-01-01T00:00:00Z
FIELDS = ["fileName", "fileSize", "fileType", "finishStatus", "imageData", "time", "urlPath"]

# (fileName, fileSize, fileType, finishStatus, imageData, time, urlPath); None = absent.
UPLOADS = [
    ("IMG_0001.jpg", "2.35", 0, True, noisy_small(), T0 + 3600, "/remote/uploads/2014/01/IMG_0001.jpg"),
    ("IMG_0002.jpg", "3.10", 0, True, None, T0 + 7260, "/remote/uploads/2014/01/IMG_0002.jpg"),
    ("Quarterly report.pdf", "12.50", 3, True, None, T0 + 86400, "/remote/uploads/2014/01/quarterly-report.pdf"),
    ("Smith, John - contract.pdf", "0.48", 3, True, None, T0 + 90000, "/remote/uploads/2014/01/smith-contract.pdf"),
    ('He said "final" v2.docx', "0.07", 3, False, None, T0 + 95000, "/remote/uploads/2014/01/final-v2.docx"),
    ("line one\nline two.txt", "0.01", 5, True, None, T0 + 99000, "/remote/uploads/2014/01/two-lines.txt"),
    ("旅行写真.jpg", "4.20", 0, True, noisy_small(), T0 + 200000, "/remote/uploads/2014/01/travel.jpg"),
    ("会议记录 2014-03.m4a", "18.75", 2, True, None, T0 + 300000, "/remote/uploads/2014/01/meeting.m4a"),
    ("보고서 🚀.pdf", "1.00", 3, True, None, T0 + 400000, "/remote/uploads/2014/01/report-rocket.pdf"),
    ("🎉🎉 party.mov", "250.00", 1, True, noisy_small(), T0 + 500000, "/remote/uploads/2014/01/party.mov"),
    ("", "0.25", 0, True, png(8, False), T0 + 600000, "/remote/uploads/2014/01/untitled.png"),
    ("scan 3.png", "", 0, True, None, T0 + 700000, "/remote/uploads/2014/01/scan3.png"),
    ("scan 4.png", "n/a", 0, False, None, T0 + 800000, "/remote/uploads/2014/01/scan4.png"),
    ("voice memo.m4a", "12,50", 2, True, None, T0 + 900000, "/remote/uploads/2014/01/memo.m4a"),
    ("backup.zip", "lots", 4, True, None, T0 + 1000000, "/remote/uploads/2014/01/backup.zip"),
    ("weird type.bin", "0.50", 9, True, None, T0 + 1100000, "/remote/uploads/2014/01/weird9.bin"),
    ("negative type.bin", "0.50", -1, None, None, T0 + 1200000, "/remote/uploads/2014/01/weird-1.bin"),
    ("big thumbnail.png", "5.00", 0, True, png(80, True), T0 + 1300000, "/remote/uploads/2014/01/big-thumb.png"),
    ("holiday 1.jpg", "3.33", 0, True, noisy_small(), T0 + 1400000, "/remote/uploads/2014/02/holiday1.jpg"),
    ("holiday 2.jpg", "3.34", 0, True, None, T0 + 1400060, "/remote/uploads/2014/02/holiday2.jpg"),
    ("slides.key", "45.90", 3, False, None, T0 + 1500000, "/remote/uploads/2014/02/slides.key"),
    ("budget.xlsx", "0.09", 3, True, None, T0 + 1600000, "/remote/uploads/2014/02/budget.xlsx"),
    ("家族 👨\u200d👩\u200d👧.heic", "2.00", 0, True, noisy_small(), T0 + 1700000, "/remote/uploads/2014/02/family.heic"),
    ("interview.mp3", "33.00", 2, True, None, T0 + 1800000, "/remote/uploads/2014/02/interview.mp3"),
    ("archive 2013.zip", "1024.00", 4, True, None, T0 + 1900000, "/remote/uploads/2014/02/archive2013.zip"),
    ("no time.txt", "0.01", 5, True, None, None, "/remote/uploads/2014/02/no-time.txt"),
    ("no type.txt", "0.02", None, True, None, T0 + 2000000, "/remote/uploads/2014/02/no-type.txt"),
    ("invoice #42.pdf", "0.30", 3, True, None, T0 + 2100000, "/remote/uploads/2014/02/invoice42.pdf"),
]
# Rows an importer must reject whatever its policy: (row, reason).
BAD_UPLOADS = [
    (("bad type.jpg", "1.00", "abc", True, None, T0 + 2200000, "/remote/uploads/2014/02/bad-type.jpg"), "fileType 'abc' is not an integer"),
    (("bad time.jpg", "1.00", 0, True, None, "yesterday", "/remote/uploads/2014/02/bad-time.jpg"), "time 'yesterday' is not an integer"),
]


def csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return str(value)


def csv_field(value):
    """RFC 4180 field; an empty string is written quoted (`""`) so readers can tell it from nil."""
    if value is None:
        return ""
    text = csv_cell(value)
    if text == "" or any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_uploads_csv():
    rows = list(UPLOADS)
    rows.insert(3, UPLOADS[1])     # exact duplicate of row IMG_0002 (right after)
    rows.insert(20, UPLOADS[6])    # exact duplicate of 旅行写真 (later on)
    rows.insert(21, UPLOADS[6])    # and a second copy
    rows[12:12] = [BAD_UPLOADS[0][0]]
    rows[25:25] = [BAD_UPLOADS[1][0]]
    buf = io.StringIO()
    buf.write(",".join(FIELDS) + "\r\n")
    for row in rows:
        buf.write(",".join(csv_field(v) for v in row) + "\r\n")
    # A row cut short (5 of 7 fields): a structural error to reject with its line number.
    buf.write("short row.txt,0.10,5,1,\r\n")
    with open(os.path.join(OUT, "uploads.csv"), "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())
    return rows


def plist_value(value, indent):
    t = "\t" * indent
    if isinstance(value, bool):
        return f"{t}<{'true' if value else 'false'}/>\n"
    if isinstance(value, int):
        return f"{t}<integer>{value}</integer>\n"
    if isinstance(value, bytes):
        b64 = base64.b64encode(value).decode()
        lines = "".join(f"{t}{b64[i:i + 76]}\n" for i in range(0, len(b64), 76))
        return f"{t}<data>\n{lines}{t}</data>\n"
    text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"{t}<string>{text}</string>\n"


def plist_dict(row):
    out = "\t<dict>\n"
    for key, value in zip(FIELDS, row):
        if value is not None:
            out += f"\t\t<key>{key}</key>\n" + plist_value(value, 2)
    return out + "\t</dict>\n"


def write_uploads_plist():
    # The pre-Core Data app's plist: a subset of the same records (fileSize written as a
    # string, as the app did), plus plist-only quirks.
    rows = [UPLOADS[i] for i in (0, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 18, 19, 22, 24)]
    rows.insert(2, UPLOADS[2])  # exact duplicate
    no_size = ("no size.png", None, 0, False, png(8, False), T0 + 2300000, "/remote/uploads/2014/03/no-size.png")
    rows.append(no_size)
    body = "".join(plist_dict(r) for r in rows)
    body += plist_dict(("plist bad type.jpg", "1.00", "image", True, None, T0 + 2400000, "/remote/uploads/2014/03/plist-bad-type.jpg"))
    body += plist_dict(("plist bad time.jpg", "1.00", 0, True, None, "2014-03-05 10:00", "/remote/uploads/2014/03/plist-bad-time.jpg"))
    body += "\t<string>not a record</string>\n"
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
            '<plist version="1.0">\n<array>\n' + body + "</array>\n</plist>\n")
    with open(os.path.join(OUT, "uploads.plist"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return rows


P = {r[0]: r[6] for r in UPLOADS}  # fileName -> urlPath of the well-formed uploads (strict policy rejects the bad-size ones)
DANGLING = "/remote/uploads/2014/09/ghost.jpg"


def task(tid, title, desc, date, remind, done, level, attachments=(), tags=()):
    obj = {"attachments": list(attachments), "isComplete": done, "remindTime": remind, "tags": list(tags),
           "taskDate": date, "taskDesc": desc, "taskID": tid, "taskLevel": level, "taskTitle": title}
    return {k: v for k, v in obj.items() if v is not None}


TASKS_JSON = [
    task(1, "Call the bank", "Ask about the fee,\nand the deadline.", "2014-03-01", "09:30", False, 2, [P["Quarterly report.pdf"]], ["finance", "work"]),
    task(2, "Renew passport", "Bring two photos.", "2014-03-02", "", True, 1, [P["IMG_0001.jpg"], P["IMG_0002.jpg"]], ["home"]),
    task(3, "买牛奶", None, "2014-03-02", "18:00", False, 0, [], ["家庭", "errands"]),
    task(4, "提交报告", "记得带身份证\n第二行\n第三行", "2014-03-03", "08:00", False, 3, [P["会议记录 2014-03.m4a"], P["보고서 🚀.pdf"]], ["工作", "work"]),
    task(5, "Send invoice", 'See "notes" folder.', "2014-03-04", "", True, 2, [P["invoice #42.pdf"]], ["finance"]),
    task(6, "歯医者の予約", "", "2014-03-05", "14:15", False, 1, [], []),
    task(7, "Plan offsite 🎯", "Venue?\nFood?\nBudget: see sheet", "2014-03-06", "10:00", False, 2, [P["budget.xlsx"], P["slides.key"]], ["work", "urgent"]),
    task(8, "Water plants", None, "2014-03-07", "07:45", True, 0, [], ["home"]),
    task(9, "Review slides", "Tab\tseparated notes", "2014-03-08", "", False, 1, [P["slides.key"]], ["work"]),
    task(10, None, "Title missing: becomes \"\" in Workspace 2", "2014-03-09", "", False, 0, [], []),
    task(11, "Fix the gate", "Back slash \\ here", "2014-03-10", "16:30", False, 2, [P["IMG_0002.jpg"]], ["home", "urgent"]),
    task(12, "Book flights ✈️", None, "2014-03-11", "20:00", True, 1, [P["旅行写真.jpg"], P["家族 👨\u200d👩\u200d👧.heic"]], ["home", "🎯 focus"]),
    task(13, "부모님께 전화", None, "2014-03-12", "19:00", False, 3, [], ["家庭"]),
    task(14, "Archive old files", "zip everything", "2014-03-13", "", False, 7, [P["archive 2013.zip"], P["backup.zip"]], ["later"]),
    task(15, "Listen to interview", None, "2014-03-14", "12:00", False, 1, [P["interview.mp3"], DANGLING], ["work"]),
    task(16, "Sort photos", "holiday ones first", "2014-03-15", "", True, 0, [P["holiday 1.jpg"], P["holiday 2.jpg"], P["big thumbnail.png"]], ["home", "later"]),
    # The sync bug: same taskID, different content.
    task(2, "Renew passport (again)", "Bring two photos.\nAnd the old passport.", "2014-03-20", "11:00", False, 2, [P["IMG_0001.jpg"]], ["home", "urgent"]),
    task(7, "Plan offsite", "Venue booked", "2014-03-06", "10:00", True, 2, [P["budget.xlsx"]], ["work"]),
    task(7, "Plan offsite 🎯", "Venue?\nFood?", "2014-03-07", "", False, 3, [], ["work"]),
    task(17, "Party video", None, "2014-03-16", "", True, 0, [P["🎉🎉 party.mov"]], ["🎯 focus"]),
    task(18, "Contract", "Smith, John", "2014-03-17", "09:00", False, 2, [P["Smith, John - contract.pdf"], P['He said "final" v2.docx']], ["work", "finance"]),
    task(19, "Untitled upload", None, "2014-03-18", "", False, 0, [P[""]], []),
    task(20, "Odd types", None, "2014-03-19", "", False, 1, [P["weird type.bin"], P["negative type.bin"], P["no type.txt"], P["no time.txt"]], ["later"]),
    task(21, "Scans", None, "2014-03-21", "", False, 1, [P["scan 3.png"], P["scan 4.png"], P["voice memo.m4a"]], ["errands"]),
    task(22, "年末調整", "書類を集める", "2014-12-01", "10:30", False, 2, [], ["finance", "工作"]),
    task(23, "Read notes", None, "2014-03-22", "", False, 0, [P["line one\nline two.txt"]], []),
]
BAD_TASKS_JSON = [
    (task("abc", "Bad id", None, "2014-03-23", "", False, 0), "taskID 'abc' is not an integer"),
    (task(None, "No id", None, "2014-03-24", "", False, 0), "taskID missing (required)"),
    (task(24, "Bad day", None, "2014-02-30", "", False, 0), "taskDate '2014-02-30' is not a day"),
    (task(25, "Bad reminder", None, "2014-03-25", "25:61", False, 0), "remindTime '25:61' is not HH:mm"),
]

TASKS_NDJSON = [
    task(101, "Pay rent", None, "2014-04-01", "08:00", True, 2, [], ["home", "finance"]),
    task(102, "Write report", "Intro\nBody\nConclusion", "2014-04-02", "", False, 3, [P["Quarterly report.pdf"]], ["work"]),
    task(103, "整理照片 📷", None, "2014-04-03", "21:00", False, 1, [P["旅行写真.jpg"], P["holiday 1.jpg"]], ["家庭"]),
    task(104, "准备会议 📋", "议程：\n1. 预算\n2. 人员", "2014-04-04", "09:00", False, 2, [P["会议记录 2014-03.m4a"]], ["工作", "urgent"]),
    task(105, "Call plumber", None, "2014-04-05", "", False, 3, [], ["home", "urgent"]),
    task(106, "Return library books", "Three books,\none DVD", "2014-04-06", "17:30", True, 0, [], ["errands"]),
    task(107, "Check backup", None, "2014-04-07", "", False, 1, [P["backup.zip"], P["archive 2013.zip"]], ["later"]),
    task(108, "Gym 💪", None, "2014-04-08", "06:30", True, 0, [], []),
    task(109, "Email Smith", 'Re: "final" contract', "2014-04-09", "", False, 2, [P["Smith, John - contract.pdf"]], ["work"]),
    task(110, "Family photo", None, "2014-04-10", "", False, 1, [P["家族 👨\u200d👩\u200d👧.heic"]], ["家庭", "home"]),
    task(111, "Budget review", None, "2014-04-11", "15:00", False, 2, [P["budget.xlsx"], P["invoice #42.pdf"]], ["finance"]),
    task(105, "Call plumber!!", "Leak is worse", "2014-04-12", "07:00", False, 3, [], ["home", "urgent"]),
    task(112, "Listen to memo", None, "2014-04-13", "", False, 0, [P["voice memo.m4a"]], []),
    task(113, "Party prep 🎉", None, "2014-04-14", "", False, 1, [P["🎉🎉 party.mov"]], ["🎯 focus", "home"]),
    task(114, "Thumbnail check", None, "2014-04-15", "", True, 0, [P["big thumbnail.png"], P["IMG_0001.jpg"]], []),
    task(115, "Priority -1?", None, "2014-04-16", "", False, -1, [], ["later"]),
    task(116, "Tidy desk", None, "2014-04-17", "", True, 0, [], ["home"]),
    task(117, "Slides v2", None, "2014-04-18", "13:00", False, 2, [P["slides.key"]], ["work"]),
    task(118, "Interview notes", "Key quotes:\n\"We ship\"", "2014-04-19", "", False, 1, [P["interview.mp3"]], ["work"]),
    task(119, "Untitled again", None, "2014-04-20", "", False, 0, [P[""]], []),
]
BAD_NDJSON = [
    ('{"taskID": 120, "taskTitle": "cut off', "line is not valid JSON (truncated)"),
    (json.dumps(task(121, "Bad date format", None, "20/04/2014", "", False, 0), ensure_ascii=False), "taskDate '20/04/2014' is not yyyy-MM-dd"),
    (json.dumps(task(122, "Bad reminder", None, "2014-04-21", "9am", False, 0), ensure_ascii=False), "remindTime '9am' is not HH:mm"),
]


def write_tasks():
    items = list(TASKS_JSON)
    for k, (obj, _) in enumerate(BAD_TASKS_JSON):
        items.insert(6 + 7 * k, obj)
    with open(os.path.join(OUT, "tasks.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(items, ensure_ascii=False, indent=2) + "\n")
    lines = [json.dumps(t, ensure_ascii=False) for t in TASKS_NDJSON]
    for k, (line, _) in enumerate(BAD_NDJSON):
        lines.insert(4 + 6 * k, line)
    with open(os.path.join(OUT, "tasks.ndjson"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    csv_rows = write_uploads_csv()
    plist_rows = write_uploads_plist()
    write_tasks()
    print("uploads.csv records:", len(csv_rows) + 1, "plist records:", len(plist_rows) + 3)
    print("tasks.json:", len(TASKS_JSON) + len(BAD_TASKS_JSON), "tasks.ndjson:", len(TASKS_NDJSON) + len(BAD_NDJSON))
