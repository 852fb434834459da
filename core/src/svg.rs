//! The SVG documents Mosaic draws — a node's task graph, the compatibility
//! matrix — written as text, natively and in the browser alike (the CLI
//! writes them to files, the app shows them).
//!
//! [`Markup`] is the only way to write them. Tag and attribute names are
//! `&'static str`, written by the program; everything else — text,
//! attribute values — comes from data (names plugins chose, messages) and
//! is escaped on the way in, so no data can open an element or an
//! attribute.

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

    /// A boolean attribute (`open`, `disabled`): present when `on`.
    pub fn flag(&mut self, name: &'static str, on: bool) -> &mut Markup {
        if on {
            self.attr(name, "");
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

/// `text`, escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_nest_and_start_tags_end_when_content_begins() {
        let mut m = Markup::new();
        m.open("g").attr("class", "tasks");
        m.open("text").flag("hidden", false).text("a").close("text");
        m.open("text").flag("hidden", true).close("text");
        m.close("g");
        assert_eq!(
            m.into_string(),
            r#"<g class="tasks"><text>a</text><text hidden=""></text></g>"#
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
