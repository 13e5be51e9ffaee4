//! Downloads made in the page (nothing leaves the tab): curves as CSV, charts as PNG or SVG.

use wasm_bindgen::JsCast;

/// Offers `url` as a download named `name`.
pub fn download_url(url: &str, name: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(url);
    a.set_download(name);
    a.click();
}

/// Offers `text` as a file of the given MIME type.
pub fn download_text(text: &str, mime: &str, name: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) {
        if let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) {
            download_url(&url, name);
        }
    }
}

/// Offers `bytes` as a download named `name`.
pub fn download_bytes(bytes: &[u8], name: &str) {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    if let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence(&parts) {
        if let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) {
            download_url(&url, name);
            let _ = web_sys::Url::revoke_object_url(&url);
        }
    }
}
