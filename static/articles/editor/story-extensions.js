// The newsroom's own extensions of the body editor (django-prose-editor / Tiptap).
//
// TextDirection: every block carries dir="auto" so an Arabic paragraph holding an
// English name, a handle or a number edits and reads in the right direction, and the
// editor itself is right-to-left on the Arabic tab and left-to-right on the English one.
//
// StoryEmbed: a social post of this story, or an image from the library, placed at a
// point in the body. The body stores only a reference (<figure data-post="12">); the
// public page renders the stored post or the image's renditions there.
import { Extension, Node } from "django-prose-editor/editor"

const BLOCKS = ["paragraph", "heading", "blockquote", "listItem"]
const DIRECTIONS = ["auto", "rtl", "ltr"]

export const TextDirection = Extension.create({
  name: "TextDirection",

  addOptions() {
    return { direction: null }
  },

  addGlobalAttributes() {
    return [
      {
        types: BLOCKS,
        attributes: {
          dir: {
            default: "auto",
            parseHTML: (element) => {
              const value = element.getAttribute("dir")
              return DIRECTIONS.includes(value) ? value : "auto"
            },
            renderHTML: (attributes) => ({ dir: attributes.dir || "auto" }),
          },
          lang: {
            default: null,
            parseHTML: (element) => element.getAttribute("lang"),
            renderHTML: (attributes) =>
              attributes.lang ? { lang: attributes.lang } : {},
          },
        },
      },
    ]
  },

  onCreate() {
    if (this.options.direction) {
      this.editor.view.dom.setAttribute("dir", this.options.direction)
    }
  },
})

function describe(options, attrs) {
  const kind = attrs.post ? "post" : "image"
  const id = String(attrs.post || attrs.image)
  const choices = kind === "post" ? options.posts : options.images
  const choice = choices.find((item) => String(item.id) === id)
  const label = options.labels[kind]
  return { kind, label, text: choice ? choice.label : options.labels.missing, choice }
}

function chooseAndInsert(editor, options, kind) {
  const choices = kind === "post" ? options.posts : options.images
  const labels = options.labels
  const dialog = document.createElement("dialog")
  dialog.className = "story-embed-dialog"
  const form = document.createElement("form")
  form.method = "dialog"
  const label = document.createElement("label")
  label.textContent = labels[`choose_${kind}`]
  const select = document.createElement("select")
  select.name = kind
  for (const choice of choices) {
    const option = document.createElement("option")
    option.value = choice.id
    option.textContent = choice.label
    select.append(option)
  }
  label.append(select)
  const insert = document.createElement("button")
  insert.type = "submit"
  insert.value = "insert"
  insert.textContent = labels.insert
  const cancel = document.createElement("button")
  cancel.type = "submit"
  cancel.value = "cancel"
  cancel.textContent = labels.cancel
  form.append(label, insert, cancel)
  dialog.append(form)
  document.body.append(dialog)
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "insert" && select.value) {
      editor
        .chain()
        .focus()
        .insertContent({ type: "storyEmbed", attrs: { [kind]: select.value } })
        .run()
    }
    dialog.remove()
  })
  dialog.showModal()
}

export const StoryEmbed = Node.create({
  name: "storyEmbed",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,

  addOptions() {
    return { posts: [], images: [], labels: {} }
  },

  addAttributes() {
    const numberAttribute = (name) => ({
      default: null,
      parseHTML: (element) => element.getAttribute(`data-${name}`),
      renderHTML: (attributes) =>
        attributes[name] ? { [`data-${name}`]: attributes[name] } : {},
    })
    return { post: numberAttribute("post"), image: numberAttribute("image") }
  },

  parseHTML() {
    return [{ tag: "figure[data-post]" }, { tag: "figure[data-image]" }]
  },

  renderHTML({ HTMLAttributes }) {
    return ["figure", HTMLAttributes]
  },

  addNodeView() {
    return ({ node }) => {
      const { kind, label, text, choice } = describe(this.options, node.attrs)
      const dom = document.createElement("figure")
      dom.className = `story-embed story-embed--${kind}`
      dom.contentEditable = "false"
      dom.dataset[kind] = node.attrs[kind]
      if (choice && choice.thumbnail) {
        const thumbnail = document.createElement("img")
        thumbnail.src = choice.thumbnail
        thumbnail.alt = ""
        dom.append(thumbnail)
      }
      const caption = document.createElement("figcaption")
      const strong = document.createElement("strong")
      strong.textContent = label
      const span = document.createElement("span")
      span.dir = "auto"
      span.textContent = text
      caption.append(strong, " ", span)
      dom.append(caption)
      return { dom }
    }
  },

  addMenuItems({ buttons, menu }) {
    const options = this.options
    menu.defineItem({
      name: "storyEmbedPost",
      groups: "nodes",
      command: (editor) => chooseAndInsert(editor, options, "post"),
      button: buttons.material("chat", options.labels.insert_post),
      enabled: () => options.posts.length > 0,
    })
    menu.defineItem({
      name: "storyEmbedImage",
      groups: "nodes",
      command: (editor) => chooseAndInsert(editor, options, "image"),
      button: buttons.material("image", options.labels.insert_image),
      enabled: () => options.images.length > 0,
    })
  },
})

// The editor names its toolbar buttons in English only ("bold", "heading 2"); the
// newsroom's admin speaks Arabic too, so the names (tooltips and what a screen
// reader announces) are replaced by the translations Django passes in.
export const ToolbarLabels = Extension.create({
  name: "ToolbarLabels",

  addOptions() {
    return { labels: {} }
  },

  onCreate() {
    const labels = this.options.labels
    const rename = () => {
      const editor = this.editor.view.dom.closest(".prose-editor")
      if (!editor) return
      for (const button of editor.querySelectorAll(".prose-menubar [title]")) {
        const label = labels[button.getAttribute("title")]
        if (label) {
          button.title = label
          button.setAttribute("aria-label", label)
        }
      }
      for (const option of editor.querySelectorAll(".prose-menubar__option")) {
        const label = labels[option.textContent.trim()]
        if (label && option.firstElementChild) option.firstElementChild.textContent = label
      }
    }
    // The menu bar is built right after the editor; rename once it is there.
    requestAnimationFrame(rename)
  },
})
