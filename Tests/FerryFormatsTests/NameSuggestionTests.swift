@testable import FerryFormats
import Testing

@Suite("did-you-mean suggestions")
struct NameSuggestionTests {
    @Test("edit distance counts inserts, deletes, replacements and swapped neighbours as one each")
    func distance() {
        func distance(_ a: String, _ b: String) -> Int { NameSuggestion.editDistance(Array(a), Array(b), limit: 5) }
        #expect(distance("import", "import") == 0)
        #expect(distance("imprt", "import") == 1)
        #expect(distance("improt", "import") == 1)
        #expect(distance("mirgate", "migrate") == 1)
        #expect(distance("xmport", "import") == 1)
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "") == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(NameSuggestion.editDistance(Array("aaaaaaaa"), Array("bbbbbbbb"), limit: 2) == 3)
    }

    @Test("the closest known name within two edits, or one the given name begins")
    func closest() {
        let verbs = ["inspect", "import", "migrate", "query", "backup", "restore"]
        #expect(NameSuggestion.closest(to: "imprt", among: verbs) == "import")
        #expect(NameSuggestion.closest(to: "IMPORT", among: ["import"]) == "import", "a name known in another case is the closest")
        #expect(NameSuggestion.closest(to: "task", among: ["Tag", "Task"]) == "Task", "not the first name one edit away")
        #expect(NameSuggestion.closest(to: "workspace 1", among: ["Workspace 2", "Workspace 1"]) == "Workspace 1")
        #expect(NameSuggestion.closest(to: "import", among: ["import"]) == nil, "the name itself is no suggestion")
        #expect(NameSuggestion.closest(to: "Inport", among: verbs) == "import")
        #expect(NameSuggestion.closest(to: "rest", among: verbs) == "restore")
        #expect(NameSuggestion.closest(to: "zzzzzz", among: verbs) == nil)
        #expect(NameSuggestion.closest(to: "qx", among: ["ab"]) == nil, "two edits of a two-letter word is no suggestion")
        #expect(NameSuggestion.closest(to: "", among: verbs) == nil)
        // A name differing only in its digits is no suggestion: 'Workspace 1' for 'Workspace 9'
        // misled (first-hour review).
        #expect(NameSuggestion.closest(to: "Workspace 4", among: ["Workspace 1", "Workspace 3"]) == nil, "numbers name other things")
        #expect(NameSuggestion.closest(to: "Workspce 1", among: ["Workspace 1", "Workspace 3"]) == "Workspace 1")
        #expect(NameSuggestion.closest(to: "Workspace 10", among: ["Workspace 1", "Workspace 2"]) == nil, "runs of digits of any length")
        #expect(NameSuggestion.closest(to: "bsh", among: ["bash", "zsh", "fish"]) == "bash", "the first of equals")
        #expect(NameSuggestion.closest(to: "2", among: ["Workspace 1", "Workspace 2", "Workspace 12"]) == "Workspace 2", "a name's last word")
        #expect(NameSuggestion.closest(to: "ms", among: ["unix", "unix-ms", "reference"]) == "unix-ms", "a last word after a hyphen")
        #expect(NameSuggestion.hint(for: "jsno", among: ["ndjson", "json"]) == " (did you mean 'json'?)")
        #expect(NameSuggestion.hint(for: "xxxxxxx", among: ["json"]).isEmpty)
    }
}
