//! The browser's `fetch`, as the API's calls use it: a method, a path, a
//! few headers and a body, and back the status and the body's text.
//! (It replaced `gloo-net`, whose request builder and the `http` crate's
//! methods were about 4.5 KB of the download for the same requests.)

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A request not sent yet.
#[derive(Debug)]
pub struct Request {
    method: &'static str,
    path: String,
    headers: Vec<(&'static str, String)>,
    body: Option<JsValue>,
}

/// An answer: its status and its body's text.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub ok: bool,
    /// `None` when the body could not be read as text.
    pub text: Option<String>,
}

impl Request {
    fn new(method: &'static str, path: &str) -> Request {
        Request {
            method,
            path: path.to_owned(),
            headers: Vec::new(),
            body: None,
        }
    }

    pub fn get(path: &str) -> Request {
        Request::new("GET", path)
    }

    pub fn post(path: &str) -> Request {
        Request::new("POST", path)
    }

    pub fn put(path: &str) -> Request {
        Request::new("PUT", path)
    }

    pub fn patch(path: &str) -> Request {
        Request::new("PATCH", path)
    }

    pub fn delete(path: &str) -> Request {
        Request::new("DELETE", path)
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Request {
        self.headers.push((name, value.to_owned()));
        self
    }

    pub fn body(mut self, body: impl Into<JsValue>) -> Request {
        self.body = Some(body.into());
        self
    }

    /// Sends it. `Err` when no answer came (the server could not be
    /// reached): what the browser said.
    pub async fn send(self) -> Result<Answer, String> {
        let response = JsFuture::from(self.fetch()?).await.map_err(said)?;
        let response: web_sys::Response = response.unchecked_into();
        let text = match response.text() {
            Ok(promise) => JsFuture::from(promise)
                .await
                .ok()
                .and_then(|t| t.as_string()),
            Err(_) => None,
        };
        Ok(Answer {
            status: response.status(),
            ok: response.ok(),
            text,
        })
    }

    fn fetch(&self) -> Result<js_sys::Promise, String> {
        let init = web_sys::RequestInit::new();
        init.set_method(self.method);
        let headers = web_sys::Headers::new().map_err(said)?;
        for (name, value) in &self.headers {
            headers.set(name, value).map_err(said)?;
        }
        init.set_headers(&headers);
        if let Some(body) = &self.body {
            init.set_body(body);
        }
        let window = web_sys::window().ok_or("no window")?;
        Ok(window.fetch_with_str_and_init(&self.path, &init))
    }
}

/// What a JavaScript failure says.
fn said(error: JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error
            .as_string()
            .unwrap_or_else(|| "unknown error".to_owned()),
    }
}
