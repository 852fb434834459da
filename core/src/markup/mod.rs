//! Views written as HTML (or SVG) text: the app sets a read-only view as an
//! element's inner HTML, and merges an interactive one (the node table's
//! rows) into what is shown each time its state changes
//! (`morph` in the app), listening for input on the view's element. Tests
//! read the text natively, and a view costs the browser's download a few
//! calls per element instead of a reactive view type per element.
//!
//! [`Markup`] is the only way to write it. Tag and attribute names are
//! `&'static str`, written by the program; everything else — text, attribute
//! values — comes from data (names plugins chose, messages) and is escaped
//! on the way in, so no data can open an element or an attribute.


/// HTML being written. An element is opened with [`Markup::open`], given
/// attributes with [`Markup::attr`], filled with text or elements, and
/// closed with [`Markup::close`]; a start tag ends (`>`) when its content
/// begins.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Markup {
    out: String,
    /// A start tag is open: attributes may still follow.
    in_tag: bool,
}

impl Markup {
    pub fn new() -> Markup {
        Markup::default()
    }

    /// Starts `<tag`.
    pub fn open(&mut self, tag: &'static str) -> &mut Markup {
        self.end_tag();
        self.out.push('<');
        self.out.push_str(tag);
        self.in_tag = true;
        self
    }

    /// ` name="value"` on the element just opened, the value escaped.
    pub fn attr(&mut self, name: &'static str, value: &str) -> &mut Markup {
        debug_assert!(self.in_tag, "attribute {name} outside a start tag");
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape_into(&mut self.out, value);
        self.out.push('"');
        self
    }

    /// A number-valued attribute.
    pub fn num(&mut self, name: &'static str, value: usize) -> &mut Markup {
        self.attr(name, &value.to_string())
    }

    /// A signed number-valued attribute (an id).
    pub fn num_i64(&mut self, name: &'static str, value: i64) -> &mut Markup {
        self.attr(name, &value.to_string())
    }

    /// A boolean attribute (`open`, `disabled`): present when `on`.
    pub fn flag(&mut self, name: &'static str, on: bool) -> &mut Markup {
        if on {
            self.attr(name, "");
        }
        self
    }

    /// ` class="…"`: the names whose flag is set, in order; nothing when
    /// none is.
    pub fn classes(&mut self, names: &[(&'static str, bool)]) -> &mut Markup {
        let list = class_list(names);
        if !list.is_empty() {
            self.attr("class", &list);
        }
        self
    }

    /// Text, escaped.
    pub fn text(&mut self, text: &str) -> &mut Markup {
        self.end_tag();
        escape_into(&mut self.out, text);
        self
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &'static str) -> &mut Markup {
        self.end_tag();
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
        self
    }

    /// `<tag>text</tag>`.
    pub fn leaf(&mut self, tag: &'static str, text: &str) -> &mut Markup {
        self.open(tag).text(text).close(tag)
    }

    /// An error shown where it happened, announced:
    /// `<div class="notice notice-error" role="alert">message</div>`.
    pub fn alert(&mut self, message: &str) -> &mut Markup {
        self.open("div")
            .attr("class", "notice notice-error")
            .attr("role", "alert")
            .text(message)
            .close("div")
    }

    /// A request that failed, with why (`details`, a list when there are
    /// any) and a "Try again" button (`button.retry`); `waiting` says that
    /// it is tried again by itself.
    pub fn retry(&mut self, message: &str, details: &[&str], waiting: bool) -> &mut Markup {
        self.open("div")
            .attr("class", "notice notice-error")
            .attr("role", "alert")
            .attr("data-retry", "")
            .leaf("p", message);
        self.open("ul").classes(&[("hidden", details.is_empty())]);
        for detail in details {
            self.leaf("li", detail);
        }
        self.close("ul");
        self.open("p")
            .classes(&[("muted", true), ("hidden", !waiting)])
            .text("Trying again every few seconds…")
            .close("p");
        self.open("button")
            .attr("type", "button")
            .attr("class", "retry")
            .text("Try again")
            .close("button")
            .close("div")
    }

    /// Markup written elsewhere, already escaped.
    pub fn append(&mut self, other: Markup) -> &mut Markup {
        self.end_tag();
        self.out.push_str(&other.into_string());
        self
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The text written so far (a start tag still open is not ended).
    pub fn as_str(&self) -> &str {
        &self.out
    }

    pub fn into_string(mut self) -> String {
        self.end_tag();
        self.out
    }

    fn end_tag(&mut self) {
        if self.in_tag {
            self.out.push('>');
            self.in_tag = false;
        }
    }
}

/// Escapes what would end text or an attribute value: `&`, `<`, `>`, `"`.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// The names whose flag is set, space-separated: a `class` value.
pub fn class_list(names: &[(&str, bool)]) -> String {
    let on: Vec<&str> = names
        .iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| *n)
        .collect();
    on.join(" ")
}

/// `text`, escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// `""` for one, `"s"` for any other count.
pub fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_nest_and_start_tags_end_when_content_begins() {
        let mut m = Markup::new();
        m.open("ul").attr("class", "tasks");
        m.open("li").flag("hidden", false).text("a").close("li");
        m.open("li").flag("hidden", true).close("li");
        m.close("ul");
        assert_eq!(
            m.into_string(),
            r#"<ul class="tasks"><li>a</li><li hidden=""></li></ul>"#
        );
    }

    #[test]
    fn a_failed_request_offers_to_try_again() {
        let mut m = Markup::new();
        m.retry("Cannot reach the server.", &[], true);
        assert_eq!(
            m.into_string(),
            "<div class=\"notice notice-error\" role=\"alert\" data-retry=\"\">\
             <p>Cannot reach the server.</p><ul class=\"hidden\"></ul>\
             <p class=\"muted\">Trying again every few seconds…</p>\
             <button type=\"button\" class=\"retry\">Try again</button></div>"
        );
        let mut m = Markup::new();
        m.retry("Refused.", &["KVM <and> vCenter"], false);
        let html = m.into_string();
        assert!(
            html.contains("<ul><li>KVM &lt;and&gt; vCenter</li></ul><p class=\"muted hidden\">")
        );
    }

    #[test]
    fn data_cannot_open_an_element_or_an_attribute() {
        let hostile = r#""><script>alert(1)</script><b a="&amp;"#;
        let mut m = Markup::new();
        m.open("p").attr("title", hostile).text(hostile).close("p");
        let html = m.into_string();
        assert_eq!(
            html,
            "<p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b a=&quot;&amp;amp;\">\
             &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b a=&quot;&amp;amp;</p>"
        );
        assert_eq!(html.matches('<').count(), 2, "only <p> and </p>");
    }
}
