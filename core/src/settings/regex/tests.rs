use proptest::prelude::*;

use super::{Error, Regex};

#[track_caller]
fn check(pattern: &str, matching: &[&str], not_matching: &[&str]) {
    let re = Regex::new(pattern).unwrap_or_else(|e| panic!("'{pattern}': {e}"));
    for text in matching {
        assert_eq!(
            re.is_match(text),
            Ok(true),
            "'{pattern}' should match '{text}'"
        );
    }
    for text in not_matching {
        assert_eq!(
            re.is_match(text),
            Ok(false),
            "'{pattern}' should not match '{text}'"
        );
    }
}

#[track_caller]
fn refused(pattern: &str, reason: &str) {
    match Regex::new(pattern) {
        Ok(_) => panic!("'{pattern}' should be refused"),
        Err(e) => assert!(e.to_string().contains(reason), "'{pattern}': {e}"),
    }
}

#[test]
fn literals_classes_and_anchors() {
    check("abc", &["abc", "xabcx"], &["ab", "acb"]);
    check("^abc$", &["abc"], &["xabc", "abcx"]);
    check("^[A-Za-z0-9_-]+$", &["a-b_9"], &["", "a b", "é"]);
    check("^[^a-c]$", &["d", "-"], &["a", "b", ""]);
    check(r"^\S*$", &["", "abc"], &["a b", "a\tb"]);
    check(r"^\w+$", &["ab_1"], &["a-b", "é"]);
    check(r"^\d{2,3}$", &["12", "123"], &["1", "1234", "١٢"]);
    check(r"^a.c$", &["abc", "aéc"], &["a\nc", "ac"]);
    check(r"(?s)^a.c$", &["a\nc"], &["ac"]);
    check(r"^[\]a]+$", &["]a]"], &["b"]);
    check(r"^[]a]+$", &["]a"], &["b"]);
    check(r"^[a-]+$", &["a-"], &["b"]);
    check(r"^[\d.]+$", &["1.2"], &["a"]);
    check(r"^[^\s]+$", &["ab"], &["a b"]);
    check(r"\bword\b", &["a word here", "word"], &["swordfish"]);
    check(r"\Bor\B", &["word"], &["or"]);
    check(r"^\x41\u0042\x{43}$", &["ABC"], &["abc"]);
    check(r"^a\.b\/c\-d$", &["a.b/c-d"], &["axb/c-d"]);
    check("^a{2}$", &["aa"], &["a", "aaa"]);
    check("^a{2,}$", &["aa", "aaaa"], &["a"]);
}

/// Where Python and JavaScript read a pattern differently, Mosaic reads it
/// as docs/semantics.md ("Regexes") decides.
#[test]
fn where_python_and_javascript_differ() {
    // `{,n}` is Python's `{0,n}` (JavaScript reads the characters).
    check("^a{,2}$", &["", "a", "aa"], &["aaa", "a{,2}"]);
    check("^a{,}$", &["", "aaaa"], &["a{,}"]);
    check("^a{,2}?b$", &["b", "aab"], &["aaab"]);
    // Braces that are no count are characters in both.
    check("^a{}$", &["a{}"], &["a"]);
    check("^a{ 1}$", &["a{ 1}"], &["a"]);
    check("^a{1,2$", &["a{1,2"], &["a"]);
    check("^a{x}$", &["a{x}"], &["a"]);
    // `$` is the end of the value, as in JavaScript: Python's also matched
    // before a final newline.
    check(r"^\w+$", &["nova"], &["nova\n", "nova\n\n"]);
    check(r"^\w+\Z", &["nova"], &["nova\n"]);
    check(r"(?m)^\w+$", &["nova\n", "x\nnova"], &["no va"]);
    // Octal escapes, as both read them.
    check(r"^\012$", &["\n"], &["012"]);
    check(r"^\101\0$", &["A\0"], &["A"]);
    check(r"^\08$", &["\u{0}8"], &["8"]);
    check(r"^[\1\101]+$", &["\u{1}A"], &["1"]);
    check(r"^(a)\1$", &["aa"], &["a"]);
    // A backreference to a group that did not match fails, as in Python
    // (JavaScript matches it with nothing).
    check(r"^(?:(a)|b)\1$", &["aa"], &["b"]);
    // A loop body that matches nothing ends the loop with its groups, as
    // in Python (JavaScript gets there by matching the unset group).
    check(r"(\b)*\1", &["a", " a"], &["", " "]);
    check(r"^(a?)*\1b$", &["b", "aab"], &["c"]);
    check(r"^(?:(a?)|x)+\1y$", &["y", "xy", "aay", "xay"], &["xa"]);
    // `\B` matches in an empty text, as in JavaScript (and Python 3.14).
    check(r"\B", &["", "ab", "-"], &["a"]);
    // `.` is anything but `\n`, as in Python (JavaScript's leaves out `\r`,
    // U+2028 and U+2029 too).
    check(r"^a.b$", &["a\rb", "a\u{2028}b"], &["a\nb"]);
    // `\s` is JavaScript's white space.
    check(
        r"^\s$",
        &["\u{a0}", "\u{feff}", "\u{2028}"],
        &["\u{85}", "\u{200b}"],
    );
}

#[test]
fn alternation_groups_and_repetition() {
    check("^(ab|cd)+$", &["ab", "abcd", "cdab"], &["", "abc", "ac"]);
    check("^(?:a|ab)c$", &["ac", "abc"], &["bc"]);
    check("^(?P<x>a)(?<y>b)$", &["ab"], &["ba"]);
    check("^(a*)*$", &["", "aaa"], &["b"]);
    check("^(a|)+b$", &["b", "aab"], &["c"]);
    check("^a+?b$", &["aaab"], &["aaa"]);
    check("^a??b$", &["ab", "b"], &["aab"]);
    check("(^$)|(^x$)", &["", "x"], &["xx"]);
    check("^$", &[""], &["a"]);
    check("", &["", "abc"], &[]);
}

#[test]
fn lookarounds_backreferences_and_flags() {
    check(
        "^(?!services$)(?!nova$).+",
        &["novak", "admin"],
        &["nova", "services", ""],
    );
    check("^(?=.*[0-9])[a-z0-9]+$", &["ab1"], &["abc"]);
    check("(?<=a)b", &["ab"], &["cb", "b"]);
    check("(?<!a)b", &["cb", "b"], &["ab"]);
    check("(?<=ab+)c", &["abbbc"], &["ac"]);
    check(r"^(a|b)\1$", &["aa", "bb"], &["ab"]);
    check(r"^(?i)abc$", &["ABC", "aBc"], &["abd"]);
    check(r"^(?i:a)b$", &["Ab"], &["AB"]);
    check(r"^a(?i)b|c$", &["aB", "C"], &["AB"]);
    check(r"^(?i)[a-c]+$", &["AbC"], &["d"]);
    check(r"^(?i)[A-CÄ]+$", &["abcä", "ÄBC"], &["d", "ö"]);
    check(r"(?i)^(a)\1$", &["aA"], &["ab"]);
    check("(?m)^b$", &["a\nb\nc"], &["ab"]);
}

/// Fuel 10's patterns, as its release declares them.
#[test]
fn fuel_patterns() {
    let ip = r"^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$";
    check(
        ip,
        &["10.20.0.2", "255.255.255.0"],
        &["256.1.1.1", "10.20.0", "a.b.c.d"],
    );
    let user = r"^(?!services$)(?!nova$)(?!glance$)(?!keystone$)(?!neutron$)(?!cinder$)(?!swift$)(?!ceph$)(?!ironic$)(?![Gg]uest$)(?!.* +.*$).+";
    check(user, &["admin", "guests"], &["Guest", "a b", "ceph", ""]);
    let cidr = r"^(?!(?:0(?:\.0){3}|255(?:\.255){3})\/([1-9]|[1-2]\d|3[0-2])$)(?:\d|1?\d\d|2[0-4]\d|25[0-5])(?:\.(?:\d|1?\d\d|2[0-4]\d|25[0-5])){3}\/([1-9]|[1-2]\d|3[0-2])$";
    check(
        cidr,
        &["10.0.0.0/8", "192.168.1.0/24"],
        &["0.0.0.0/8", "10.0.0.0/33", "10.0.0.0"],
    );
    let port = r"^(102[4-9]|10[3-9]\d|1[1-9]\d{2}|[2-9]\d{3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5])$";
    check(port, &["1024", "65535", "8080"], &["1023", "65536", "80"]);
    check(r"^\S+@\S+$", &["a@b"], &["a@", "a b@c"]);
}

#[test]
fn bad_patterns_are_refused_with_where() {
    refused("(ab", "this group is not closed (at character 1)");
    refused("ab)", "')' closes no group (at character 3)");
    refused("[ab", "this class is not closed");
    refused("*a", "'*' repeats nothing (at character 1)");
    refused("a**", "'*' repeats a repetition (at character 3)");
    refused("[z-a]", "the range z-a is backwards");
    refused(r"\p{L}", "Unicode classes");
    refused(r"\q", "unknown escape '\\q'");
    refused(
        r"(a)\2",
        "\\2 refers to group 2, which does not come before it (at character 4)",
    );
    refused(
        r"\1(a)",
        "\\1 refers to group 1, which does not come before it",
    );
    refused(
        r"(a\1)",
        "\\1 refers to group 1 from inside it (at character 3)",
    );
    refused(r"(a)\10", "\\10 refers to group 10");
    refused(r"\400", "an octal escape is at most \\377");
    refused("{2}", "'{2}' repeats nothing (at character 1)");
    refused("a|{,3}", "'{,3}' repeats nothing (at character 3)");
    refused("a*{2}", "'{2}' repeats a repetition (at character 3)");
    refused("a{2}{3}", "'{3}' repeats a repetition (at character 5)");
    refused("^*", "'*' repeats an assertion");
    refused(
        r"a\b+",
        "'+' repeats an assertion, which matches no character (at character 4)",
    );
    refused("a${1,2}", "'{1,2}' repeats an assertion");
    refused("a{3,2}", "maximum is below its minimum");
    refused("a{1001}", "a count is at most 1000");
    refused("(?x)a", "unknown group flag 'x'");
    refused("[[:alpha:]]", "POSIX classes");
    refused(r"a\", "'\\' ends the pattern");
    refused(&"(".repeat(65), "groups nest deeper than 64");
}

#[test]
fn costly_patterns_are_bounded() {
    assert_eq!(Regex::new("(a{1000}){1000}").err(), Some(Error::TooLarge));
    // Empty groups compile to nothing; repeating them is still bounded.
    assert_eq!(
        Regex::new("(((){1000}){1000}){1000}").err(),
        Some(Error::TooLarge)
    );
    check("(){1000}a", &["a"], &[""]);
    let hostile = Regex::new("^(a+)+$").unwrap();
    let text = format!("{}b", "a".repeat(40));
    assert_eq!(hostile.is_match(&text), Err(Error::TooCostly));
    let nested = Regex::new(&format!("{}a{}", "(".repeat(64), ")".repeat(64))).unwrap();
    assert_eq!(nested.is_match("a"), Ok(true));
}

/// A backreference costs the bytes it compares: `^(a*)\1$` on 2n `a`s
/// compares about n²/2 bytes before the group is short enough.
#[test]
fn a_backreference_costs_what_it_compares() {
    let re = Regex::new(r"^(a*)\1$").unwrap();
    assert_eq!(re.is_match(&"a".repeat(2_000)), Ok(true));
    assert_eq!(re.is_match(&"a".repeat(3_000)), Err(Error::TooCostly));
}

/// A lookaround costs the slots it copies and merges back: with 1,000
/// groups, about 4,000 steps a time round the loop.
#[test]
fn a_lookaround_costs_the_slots_it_copies() {
    let re = Regex::new(&format!("{}(?:(?=a)a)*$", "()".repeat(1_000))).unwrap();
    assert_eq!(re.is_match(&"a".repeat(200)), Ok(true));
    assert_eq!(re.is_match(&"a".repeat(300)), Err(Error::TooCostly));
}

/// The backtracking stack is bounded apart from the steps: `(?:a|b)*`
/// leaves three frames a character for seven steps, so 100,000 `a`s fill
/// the stack within the step budget.
#[test]
fn the_backtracking_stack_is_bounded() {
    let re = Regex::new("^(?:a|b)*$").unwrap();
    assert_eq!(re.is_match(&"a".repeat(80_000)), Ok(true));
    assert_eq!(re.is_match(&"a".repeat(100_000)), Err(Error::TooCostly));
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just(".".to_owned()),
        Just("[ab]".to_owned()),
        Just("[^a]".to_owned()),
        Just(r"\d".to_owned()),
        Just(r"\w".to_owned()),
        Just(r"\s".to_owned()),
        Just(r"\b".to_owned()),
        Just("^".to_owned()),
        Just("$".to_owned()),
    ]
}

/// Patterns over the syntax both this matcher and `fancy-regex` read.
fn pattern() -> impl Strategy<Value = String> {
    atom().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(?:{a}|{b})")),
            (
                inner.clone(),
                prop::sample::select(vec!["*", "+", "?", "{1,2}", "*?", "+?"])
            )
                .prop_map(|(a, q)| format!("(?:{a}){q}")),
            inner.clone().prop_map(|a| format!("({a})")),
            (inner.clone(), prop::sample::select(vec!["?=", "?!"]))
                .prop_map(|(a, l)| format!("({l}{a})")),
        ]
    })
}

proptest! {
    /// On ASCII text, a pattern matches exactly where `fancy-regex` (the
    /// matcher this one replaced) says it does.
    #[test]
    fn agrees_with_fancy_regex(p in pattern(), texts in prop::collection::vec("[ab1 _]{0,6}", 1..6)) {
        let ours = Regex::new(&p).unwrap();
        // fancy-regex refuses some (a repeated assertion): nothing to compare.
        let Ok(theirs) = fancy_regex::Regex::new(&p) else {
            return Ok(());
        };
        for t in &texts {
            if let (Ok(a), Ok(b)) = (ours.is_match(t), theirs.is_match(t)) {
                prop_assert_eq!(a, b, "pattern {:?} on {:?}", p, t);
            }
        }
    }
}

proptest! {
    /// Any text is either refused with a reason or searched within the
    /// budget: never a panic (patterns come from uploaded plugins).
    #[test]
    fn any_pattern_is_refused_or_searched(
        p in r"[()\[\]{}|*+?.^$\\,:=!<>PpdDwWsSbBAzZxu0-9aAé-]{0,40}",
        texts in prop::collection::vec(".{0,20}", 1..4),
    ) {
        if let Ok(re) = Regex::new(&p) {
            for t in &texts {
                match re.is_match(t) {
                    Ok(_) | Err(Error::TooCostly) => {}
                    Err(e) => prop_assert!(false, "{:?} on {:?}: {}", p, t, e),
                }
            }
        }
    }
}
