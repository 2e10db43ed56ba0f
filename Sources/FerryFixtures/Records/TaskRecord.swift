/// One legacy task record (model `KYTask`, entity `KYTask`) as the JSON exports hold it, with
/// the two export-only keys `attachments` and `tags`.
public struct TaskRecord: FixtureRecord, Hashable {
    /// Upload `urlPath`s this task names.
    public var attachments: [String]
    /// Whether the task is done.
    public var isComplete: Bool?
    /// Reminder time of day "HH:mm", or "".
    public var remindTime: String?
    /// Tag names; the same names recur across tasks.
    public var tags: [String]
    /// Due day "yyyy-MM-dd".
    public var taskDate: String?
    /// Free text, often multi-line.
    public var taskDesc: String?
    /// The id; duplicated by the sync bug, and non-integer in records that must be rejected.
    public var taskID: FieldValue
    /// Priority 0–3; out-of-range integers occur.
    public var taskLevel: FieldValue
    /// Title.
    public var taskTitle: String?
    /// The quirks the generator put into this record (not serialised).
    public var quirks: TaskQuirks

    /// A record with the given values.
    public init(
        attachments: [String], isComplete: Bool?, remindTime: String?, tags: [String],
        taskDate: String?, taskDesc: String?, taskID: FieldValue, taskLevel: FieldValue,
        taskTitle: String?, quirks: TaskQuirks = []
    ) {
        self.attachments = attachments
        self.isComplete = isComplete
        self.remindTime = remindTime
        self.tags = tags
        self.taskDate = taskDate
        self.taskDesc = taskDesc
        self.taskID = taskID
        self.taskLevel = taskLevel
        self.taskTitle = taskTitle
        self.quirks = quirks
    }

    /// The attribute names of `KYTask` plus `attachments` and `tags`, in name order.
    public static let fieldNames = [
        "attachments", "isComplete", "remindTime", "tags", "taskDate", "taskDesc", "taskID", "taskLevel", "taskTitle",
    ]

    /// The value of the field at `index` in `fieldNames`.
    public func value(ofField index: Int) -> FieldValue {
        switch index {
        case 0: .texts(attachments)
        case 1: FieldValue(isComplete)
        case 2: FieldValue(remindTime)
        case 3: .texts(tags)
        case 4: FieldValue(taskDate)
        case 5: FieldValue(taskDesc)
        case 6: taskID
        case 7: taskLevel
        case 8: FieldValue(taskTitle)
        default: .absent
        }
    }
}
