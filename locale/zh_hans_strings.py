"""Simplified Chinese for every msgid of locale/zh_Hans (django.po, djangojs.po), filled in by locale/fill.py.

Kept as data beside the catalogs so a translator reviews one table; the .po files are what Django reads (compiled
to .mo). Keys: msgid, or (msgctxt, msgid); plural entries give one string (Chinese has one plural form).
"""

from __future__ import annotations

ZH_HANS: dict[str | tuple[str, str], str] = {
    # accounts
    "Accounts": "账户",
    "language": "语言",
    "profile": "个人设置",
    "profiles": "个人设置",
    "Unknown language.": "不支持的语言。",
    "Interface language": "界面语言",
    # stored citation status
    "The document was re-ingested after this answer; the same passage was found again and is linked.": (
        "本回答生成后，该文档已重新导入；原段落已重新找到并链接。"
    ),
    "The document was re-ingested after this answer and this passage is no longer in it.": (
        "本回答生成后，该文档已重新导入，此段落已不在文档中。"
    ),
    "The document was deleted after this answer.": "本回答生成后，该文档已被删除。",
    # source cards
    "located on the page, passage highlighted": "已定位到页面，段落已高亮",
    "located to the paragraph": "已定位到段落",
    "located to the file only (no page or paragraph known)": "仅定位到文件（页码和段落未知）",
    "unsupported": "无依据",
    "not from the library": "非文献库内容",
    "open the document": "打开文档",
    "open at %(place)s": "在%(place)s打开",
    "open": "打开",
    "(approximate: a finer place was not available)": "（大致位置：无法更精确定位）",
    "text recognised by OCR": "OCR 识别的文字",
    "Claims and their quotes:": "论断及其引文：",
    "Sources:": "来源：",
    "document %(id)s": "文档 %(id)s",
    "(document %(id)s, chunk %(chunk)s)": "（文档 %(id)s，段 %(chunk)s）",
    # places
    "p. %(n)s": "第 %(n)s 页",
    "pp. %(first)s–%(last)s": "第 %(first)s–%(last)s 页",
    ("spreadsheet", "row %(n)s"): "第 %(n)s 行",
    ("spreadsheet", "rows %(first)s–%(last)s"): "第 %(first)s–%(last)s 行",
    "line %(n)s": "第 %(n)s 行",
    "lines %(first)s–%(last)s": "第 %(first)s–%(last)s 行",
    "paragraph %(n)s": "第 %(n)s 段",
    "paragraphs %(first)s–%(last)s": "第 %(first)s–%(last)s 段",
    "passage %(n)s": "段落 %(n)s",
    # roles, statuses, stages, precision
    "Viewer": "查看者",
    "Editor": "编辑者",
    "Manager": "管理者",
    "Waiting": "等待中",
    "Processing": "处理中",
    "Ready": "就绪",
    "Failed": "失败",
    "Queued": "排队中",
    "Reading the file": "正在读取文件",
    "Recognising text (OCR)": "正在识别文字（OCR）",
    "Splitting into passages": "正在切分段落",
    "Embedding passages": "正在向量化段落",
    "Indexing": "正在建立索引",
    "Done": "完成",
    "%(stage)s %(done)s / %(total)s pages": "%(stage)s %(done)s / %(total)s 页",
    "Page and rectangles": "页面及区域",
    "Paragraphs": "段落",
    "Whole file": "整个文件",
    # errors and refusals
    "The database is unavailable for a moment; try again shortly.": "数据库暂时不可用，请稍后再试。",
    "The request body is larger than the %(limit)s MB this portal accepts.": (
        "请求内容超过了本门户可接受的 %(limit)s MB 上限。"
    ),
    "The request has more fields or files than this portal accepts.": "请求中的字段或文件数量超过了本门户的上限。",
    "This request cannot be read": "无法读取此请求",
    "This request is too large": "请求过大",
    "Not allowed": "无权操作",
    "Knowledge portal": "知识门户",
    "You may not do this here. Your role in this collection does not allow it, or the form expired: reload the "
    "page and try again.": (
        "您无权在此执行该操作：可能是您在该文集中的角色不允许，也可能是表单已过期，请刷新页面后重试。"
    ),
    "Back to the start page": "返回首页",
    "Not found": "未找到",
    "There is nothing at this address, or you do not have access to it.": "此地址没有内容，或者您无权访问。",
    "Check the link, or ask a manager of the collection to add you as a member.": (
        "请检查链接，或请文集的管理者将您添加为成员。"
    ),
    "Something went wrong": "出错了",
    "The portal could not finish this request. The error has been logged; nothing you sent was lost on your side.": (
        "门户未能完成此请求。错误已记录，您这边提交的内容没有丢失。"
    ),
    "Try again in a moment. If it keeps happening, tell your administrator what you were doing.": (
        "请稍后重试。如果问题持续出现，请告诉管理员您当时在做什么。"
    ),
    "Unavailable for a moment": "暂时无法使用",
    "Try again": "重试",
    "Go back, change what you sent and try again.": "请返回，修改提交的内容后重试。",
    # header, token, API docs
    "API token": "API 令牌",
    "Programs use the REST API at <code>/api/v1/</code> with the header <code>Authorization: Token …</code>; they "
    'get exactly your rights. The schema is at <a href="%(schema_url)s">/api/schema/</a>, readable and to try out '
    'at <a href="%(docs_url)s">/api/docs/</a>.': (
        "程序通过 <code>/api/v1/</code> 调用 REST API，需带上请求头 <code>Authorization: Token …</code>，"
        '其权限与您本人完全相同。接口描述位于 <a href="%(schema_url)s">/api/schema/</a>，'
        '可在 <a href="%(docs_url)s">/api/docs/</a> 阅读和试用。'
    ),
    "Your token:": "您的令牌：",
    "You have no token yet.": "您还没有令牌。",
    "Replace the token": "更换令牌",
    "Create a token": "创建令牌",
    "A new API token was created; the previous one no longer works.": "已创建新的 API 令牌，旧令牌已失效。",
    "Knowledge portal API": "知识门户 API",
    'This page needs JavaScript. The schema itself is at <a href="%(schema_url)s">%(schema_url)s</a>.': (
        '此页面需要启用 JavaScript。接口描述文件位于 <a href="%(schema_url)s">%(schema_url)s</a>。'
    ),
    "Collections": "文集",
    "History": "历史记录",
    "Admin": "管理后台",
    "Log out %(name)s": "退出登录（%(name)s）",
    # asking
    "Ask about this document": "就这份文档提问",
    "Ask a question the documents of %(name)s may answer": "提一个“%(name)s”中的文档可能回答的问题",
    "Depth": "深度",
    "reranked evidence, and the works it cites": "重排序的证据，以及其引用的文献",
    "faster, fewer passages": "更快，段落更少",
    ("depth", "deep"): "深度",
    ("depth", "quick"): "快速",
    "Ask": "提问",
    "cited by": "引用自",
    '<a class="badge cite" href="#cite-%(href_id)s-%(n)s" data-n="%(n)s">%(n)s</a> as %(label)s': (
        '<a class="badge cite" href="#cite-%(href_id)s-%(n)s" data-n="%(n)s">%(n)s</a>（作为 %(label)s）'
    ),
    ("list separator", ", "): "、",
    "References: %(listed)s in the list, %(linked)s of them in this collection": (
        "参考文献：共 %(listed)s 条，其中 %(linked)s 条在本文集中"
    ),
    "in the library: %(title)s": "文献库中：%(title)s",
    "not in the library": "不在文献库中",
    "in the library": "在文献库中",
    "Related documents": "相关文档",
    "not strict: unsupported sentences kept and marked": "非严格模式：保留并标注了无依据的句子",
    "regenerated %(counter)s time": "已重新生成 %(counter)s 次",
    "Re-run deep": "以深度模式重新回答",
    "Sources": "来源",
    "In your library (found through citations)": "文献库中已有（通过引用发现）",
    "(no longer in the library)": "（已不在文献库中）",
    "(also among the sources above)": "（也在上方来源中）",
    "Suggested additions (found through citations)": "建议补充（通过引用发现）",
    "Related documents (similar metadata, no citation link)": "相关文档（元数据相近，无引用关系）",
    "related to": "相关于",
    "Retrieval note": "检索说明",
    "answer this question again and replace this answer": "重新回答此问题并替换当前回答",
    "Regenerate": "重新生成",
    "score from %(source)s": "得分来源：%(source)s",
    "open in Zotero": "在 Zotero 中打开",
    "Citations of this answer": "本回答的引用",
    "← citation %(n)s": "← 引用 %(n)s",
    "citation %(n)s →": "引用 %(n)s →",
    "back to the answer": "返回回答",
    "Ask %(name)s": "向“%(name)s”提问",
    "Ask this document": "就这份文档提问",
    'Reading mode: answers come from <strong class="reading-title">%(title)s</strong> only.': (
        '阅读模式：回答仅来自<strong class="reading-title">%(title)s</strong>。'
    ),
    "Ask all of %(name)s instead": "改为向整个“%(name)s”提问",
    "Every claim of an answer carries a number; it opens the passage it comes from.": (
        "回答中的每个论断都带有编号，点击即可打开其出处段落。"
    ),
    "Your question": "您的问题",
    "Your questions in %(name)s": "您在“%(name)s”中的提问",
    "Untitled conversation": "未命名对话",
    "reading “%(title)s”": "阅读《%(title)s》",
    "%(counter)s question": "%(counter)s 个问题",
    "%(since)s ago": "%(since)s前",
    "All your conversations": "您的全部对话",
    "You have not asked anything here yet.": "您还没有在这里提过问题。",
    "Conversation": "对话",
    'reading “<a href="%(document_url)s">%(title)s</a>”': '阅读《<a href="%(document_url)s">%(title)s</a>》',
    "started %(when)s": "开始于 %(when)s",
    "Ask a follow-up": "继续追问",
    "Your questions and their answers, newest first, in the collections you can still read.": (
        "您在仍有权阅读的文集中提出的问题及其回答，最新的在前。"
    ),
    "Collection": "文集",
    "Questions": "问题数",
    "Last asked": "最近提问",
    "← Newer": "← 较新",
    "page %(number)s of %(count)s": "第 %(number)s 页，共 %(count)s 页",
    "Older →": "较早 →",
    "No questions yet. Open a collection and choose “Ask”.": "还没有问题。打开一个文集，然后点击“提问”。",
    # documents
    "ingest progress": "导入进度",
    "Re-read": "重新读取",
    "Delete this document and its passages?": "删除这份文档及其所有段落？",
    "Delete": "删除",
    "Pages of this document": "本文档的分页",
    "← previous page": "← 上一页",
    "next page →": "下一页 →",
    "Search": "检索",
    "Members": "成员",
    "Add documents (PDF, DOCX, Markdown, text)": "添加文档（PDF、DOCX、Markdown、纯文本）",
    "Upload": "上传",
    "Document": "文档",
    "Type": "类型",
    "Status": "状态",
    "Passages": "段落",
    "No documents yet.": "还没有文档。",
    "%(ready)s of %(counter)s document ready": "%(counter)s 份文档中 %(ready)s 份已就绪",
    "You are not a member of any collection yet. An administrator or a collection's manager can add you.": (
        "您还不是任何文集的成员。管理员或文集的管理者可以添加您。"
    ),
    "Members of %(name)s": "“%(name)s”的成员",
    "User": "用户",
    "Role": "角色",
    "role of %(name)s": "%(name)s 的角色",
    "Change": "修改",
    "Remove": "移除",
    "Add a member": "添加成员",
    "Add": "添加",
    "User name or e-mail": "用户名或电子邮箱",
    "No single active account has that user name or e-mail; an administrator can create it.": (
        "没有唯一对应该用户名或电子邮箱的有效账户；可请管理员创建。"
    ),
    "%(user)s added as %(role)s.": "已将 %(user)s 添加为%(role)s。",
    "%(user)s is now %(role)s.": "%(user)s 现在是%(role)s。",
    "%(user)s was removed.": "已移除 %(user)s。",
    "You cannot remove yourself; ask another manager or an administrator.": (
        "您不能移除自己，请联系其他管理者或管理员。"
    ),
    "Choose one or more files to upload.": "请选择一个或多个要上传的文件。",
    "“%(title)s” is being read again.": "正在重新读取《%(title)s》。",
    "“%(title)s” was deleted.": "已删除《%(title)s》。",
    "Not queued yet: the task queue could not be reached. Reading starts as soon as it is back.": (
        "尚未排队：无法连接任务队列。队列恢复后将立即开始读取。"
    ),
    "%(counter)s page": "%(counter)s 页",
    "Open the file": "打开文件",
    "Open in the viewer": "在阅读器中打开",
    "The title and the authors were read from the first page, as the file's own metadata names none: check against "
    "the file.": "文件本身的元数据未给出标题和作者，标题和作者是从首页读取的，请与原文件核对。",
    "The title was read from the first page, as the file's own metadata names none: check against the file.": (
        "文件本身的元数据未给出标题，标题是从首页读取的，请与原文件核对。"
    ),
    "The authors were read from the first page, as the file's own metadata names none: check against the file.": (
        "文件本身的元数据未给出作者，作者是从首页读取的，请与原文件核对。"
    ),
    "Read as %(encoding)s: no encoding could be recognised, so some characters may be wrong.": (
        "按 %(encoding)s 读取：未能识别文件编码，部分字符可能有误。"
    ),
    "Read as %(encoding)s.": "按 %(encoding)s 读取。",
    "Page %(pages)s had no readable text layer (a scan needs OCR); passages there are located by page only.": (
        "第 %(pages)s 页没有可读的文字层（扫描件需要 OCR），其中的段落只能定位到页。"
    ),
    "Ingestion: %(progress)s (%(percent)s%%)": "导入：%(progress)s（%(percent)s%%）",
    "(approximate)": "（大致位置）",
    "show in the document": "在文档中显示",
    "No passages yet.": "还没有段落。",
    "viewer": "阅读器",
    "Download the file": "下载文件",
    "Text recognised by OCR from a scanned page; it may hold recognition errors.": (
        "文字由 OCR 从扫描页面识别而来，可能存在识别错误。"
    ),
    'Cited for: “<span class="cited-quote-text">%(quote)s</span>”': (
        '引用内容：“<span class="cited-quote-text">%(quote)s</span>”'
    ),
    "Passages around the cited one": "被引段落前后的段落",
    "not ready": "未就绪",
    "This document could not be read, so there is nothing to show in the viewer.": (
        "这份文档无法读取，阅读器中没有可显示的内容。"
    ),
    "This document is not ready yet: it is waiting to be read or being read. The viewer opens once it is ready.": (
        "这份文档尚未就绪：正在等待读取或正在读取。就绪后即可在阅读器中打开。"
    ),
    "← The document's page shows its status": "← 文档页面显示其状态",
    "Page view": "页面视图",
    "Zoom out": "缩小",
    "Zoom in": "放大",
    "Fit width": "适合宽度",
    "Page": "页码",
    ("page N of M", "of"): "/",
    "The exact place of this passage on the page is not known; its page is shown.": (
        "此段落在页面上的确切位置未知，已显示其所在页。"
    ),
    "Pages of %(title)s": "《%(title)s》的页面",
    "Loading the PDF…": "正在加载 PDF…",
    "The PDF viewer needs JavaScript; the file can be downloaded above.": (
        "PDF 阅读器需要启用 JavaScript；可在上方下载文件。"
    ),
    # login
    "Log in": "登录",
    "Your user name and password did not match. Please try again.": "用户名和密码不匹配，请重试。",
    "User name": "用户名",
    "Password": "密码",
    "Too many attempts": "尝试次数过多",
    "Too many failed logins": "登录失败次数过多",
    "Logging in is paused for this account or this address after repeated wrong passwords. Try again in "
    "%(counter)s minute.": "由于多次输错密码，此账户或此地址的登录已暂停。请在 %(counter)s 分钟后重试。",
    "Back to the login page": "返回登录页",
    # search
    ("search mode", "keyword"): "关键词",
    ("search mode", "vector"): "语义向量",
    ("search mode", "hybrid"): "混合",
    "%(counter)s result for “%(query)s”": "“%(query)s”共 %(counter)s 条结果",
    "%(ms)s ms": "%(ms)s 毫秒",
    "from the cache": "来自缓存",
    "Search again with depth “deep”": "以“深度”模式重新检索",
    "Cites %(counter)s reference": "引用了 %(counter)s 篇文献",
    "Related:": "相关：",
    "Nothing found. Try other words, another mode, or fewer filters.": (
        "没有找到结果。请换个说法、换种模式或减少筛选条件。"
    ),
    "Mode": "模式",
    "asked for": "请求的是",
    "depth": "深度",
    "vector search": "向量检索",
    "Reranker": "重排序模型",
    "none": "无",
    "available": "可用",
    "not available": "不可用",
    "used": "已使用",
    "not used": "未使用",
    "Hits": "命中",
    "returned of %(fused)s candidates (keyword %(keyword)s, vector %(vector)s)": (
        "条，候选共 %(fused)s 条（关键词 %(keyword)s，向量 %(vector)s）"
    ),
    "%(n)s passages in scope": "检索范围内共 %(n)s 个段落",
    "Time": "耗时",
    "Degraded": "降级",
    "Search the passages of this collection by keyword, by meaning, or both (hybrid).": (
        "按关键词、按语义或两者结合（混合）检索本文集的段落。"
    ),
    "Search %(name)s": "检索“%(name)s”",
    "Query": "检索词",
    "searching…": "正在检索…",
    "Filters": "筛选",
    "Authors": "作者",
    "any author contains": "任一作者包含",
    "Title": "标题",
    "title contains": "标题包含",
    "Journal": "期刊",
    "journal contains": "期刊名包含",
    "Kind": "类型",
    "any": "不限",
    "Year from": "起始年份",
    "Year to": "截止年份",
    "Section": "章节",
    "e.g. Methods": "例如：方法",
    # JavaScript (djangojs)
    "Reading %(count)s passage…": "正在阅读 %(count)s 个段落…",
    "No passage found; answering…": "未找到段落，正在作答…",
    "Searching…": "正在检索…",
    "Writing…": "正在撰写…",
    "1 question · just now": "1 个问题 · 刚刚",
    "The answer is saved but could not be shown here: ": "回答已保存，但无法在此显示：",
    "open it in its conversation": "在所属对话中打开",
    "This passage cannot be placed exactly in this view of the document; its text is in the panel.": (
        "无法在当前文档视图中精确定位此段落，其文字显示在侧栏中。"
    ),
    "The cited passage is on another page of this document; choose it in the panel to go there.": (
        "被引段落位于本文档的另一页，请在侧栏中选择它以跳转过去。"
    ),
    "The passages could not be loaded.": "段落加载失败。",
    "The PDF could not be shown (%(error)s). The file can still be downloaded.": (
        "无法显示该 PDF（%(error)s）。仍可下载该文件。"
    ),
}

ZH_HANS |= {
    "Ingestion is paused: no worker is running": "导入已暂停：没有正在运行的后台任务进程",
    "Ingestion is paused: the task queue cannot be reached": "导入已暂停：无法连接任务队列",
    "Uploads are kept, and read once it is back.": "已上传的文件会保留，队列恢复后即开始读取。",
    "Uploads are kept, and read as soon as a worker runs.": "已上传的文件会保留，一旦有后台任务进程运行即开始读取。",
}

ZH_HANS |= {
    "“%(name)s” was stored, but the task queue cannot be reached right now; it will be read as soon as the queue is "
    "back.": "《%(name)s》已保存，但目前无法连接任务队列；队列恢复后将立即读取。",
    "“%(name)s” is already in this collection (same content); it was not added again.": (
        "《%(name)s》已在本文集中（内容相同），未重复添加。"
    ),
    "“%(name)s” is being read again.": "正在重新读取《%(name)s》。",
    "“%(name)s” was added and is being read.": "已添加《%(name)s》，正在读取。",
    "“%(name)s”: files of type %(suffix)s are not supported; use %(kinds)s.": (
        "《%(name)s》：不支持 %(suffix)s 类型的文件，请使用 %(kinds)s。"
    ),
    "(none)": "（无扩展名）",
    "“%(name)s” is %(size)s MB; the limit is %(limit)s MB.": (
        "《%(name)s》大小为 %(size)s MB，超过了 %(limit)s MB 的上限。"
    ),
    "“%(name)s” is empty.": "《%(name)s》是空文件。",
}

# Access refusals (API error details and logs; the pages show the styled 403/404 instead).
ZH_HANS |= {
    "No such conversation.": "没有这个对话。",
    "No such message.": "没有这条消息。",
    "Editors and managers of this collection may change its documents.": "只有本文集的编辑者和管理者可以修改其文档。",
    "Only managers of this collection may change its members.": "只有本文集的管理者可以修改其成员。",
    "No such collection.": "没有这个文集。",
    "No such document.": "没有这份文档。",
    "This document is not ready: it is waiting to be read, being read, or could not be read.": (
        "这份文档尚未就绪：正在等待读取、正在读取，或无法读取。"
    ),
}

# Questions and searches refused.
ZH_HANS |= {
    "Type a question.": "请输入问题。",
    "The question is too long (at most %(n)s characters).": "问题过长（最多 %(n)s 个字符）。",
    "This conversation belongs to another collection.": "此对话属于另一个文集。",
    "Type something to search for.": "请输入要检索的内容。",
    "The query is too long (at most 1000 characters).": "检索词过长（最多 1000 个字符）。",
    "year_from is after year_to.": "起始年份晚于截止年份。",
}

# The home page, document lists, search paging and the weak-match note, queue position (issue 18, lists branch).
ZH_HANS |= {
    "This conversation is across all your collections; leave collection out.": "此对话跨越您的全部文集；请勿指定文集。",
    "Ask all your collections, or name one collection: not both.": "请向全部文集提问，或指定一个文集：二者不可兼得。",
    "Newest first": "最新添加在前",
    "Oldest first": "最早添加在前",
    "Title A–Z": "标题 A–Z",
    "Title Z–A": "标题 Z–A",
    "Year, newest first": "年份，由新到旧",
    "Year, oldest first": "年份，由旧到新",
    "Title or file name": "标题或文件名",
    "Any status": "任意状态",
    "Any type": "任意类型",
    "Sort": "排序",
    "Ask all your collections": "向全部文集提问",
    "All your collections": "全部文集",
    "all your collections": "全部文集",
    "Home": "首页",
    "Search and ask all your collections": "检索并询问您的全部文集",
    "deep": "深度",
    "quick": "快速",
    "A question the documents of all your collections may answer": "全部文集中的文档可以回答的问题",
    "Your collections": "您的文集",
    "Recent conversations": "最近的对话",
    "%(when)s ago": "%(when)s前",
    "You have not asked anything yet.": "您还没有提过问题。",
    "Find documents": "查找文档",
    "Show": "显示",
    "Clear filters": "清除筛选",
    "page %(number)s of %(pages)s": "第 %(number)s 页，共 %(pages)s 页",
    "Pages of documents": "文档分页",
    "Previous page": "上一页",
    "Next page": "下一页",
    ", next in line": "，下一个处理",
    ", %(ahead)s ahead of it": "，前面还有 %(ahead)s 个",
    "in %(name)s": "来自 %(name)s",
    "More search results": "更多检索结果",
    "Previous results": "上一批结果",
    "More results": "更多结果",
    "No passage matches the key terms of your query well: these are the nearest passages there are, not good matches. "
    "Try other words.": "没有段落与检索词的关键词很好地匹配：以下只是最接近的段落，并非好的匹配。请换用其他词语。",
    "%(ready)s of %(total)s document ready": "%(total)s 份文档中 %(ready)s 份已就绪",
    "%(total)s question": "%(total)s 个问题",
    "%(total)s document": "%(total)s 份文档",
}
